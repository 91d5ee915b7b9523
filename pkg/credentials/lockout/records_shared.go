package lockout

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// Every controller of the cluster counts in one record: before a counted request, a
// controller reads it as it is (latest), takes what others wrote into its own counts
// (adoptLocked), and lets accounts it never asked for limit those it does
// (noteReadLocked, unlinkedMaxLocked in accounts.go).

// unlinked returns the entries of accounts no token linked yet, as last read.
func (r *records) unlinked() []accountRecord {
	if r == nil {
		return nil
	}
	return r.read
}

// latest reads the record as it is now, nil without one.
func (r *records) latest(ctx context.Context, who neutronclient.TokenRequester) (map[string]string, error) {
	if r == nil || !r.restored {
		return nil, nil
	}
	entries, err := r.record.Latest(ctx)
	if err != nil {
		r.onError(fmt.Errorf("reading %s before a token request of %s: %w", r.where, who.Account, err))
		return nil, &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: the controller could not read its record of refused token requests first (its log says why); retrying",
			who.Account)}
	}
	return entries, nil
}

// noteReadLocked keeps, of entries just read, those of accounts no token linked, and
// returns the valid ones parsed.
func (r *records) noteReadLocked(entries map[string]string) map[string]accountRecord {
	if r == nil || entries == nil {
		return nil
	}
	parsed := r.parseLocked(entries)
	r.read = r.read[:0]
	for _, rec := range parsed {
		if !rec.Linked && rec.Refusals > 0 {
			r.read = append(r.read, rec)
		}
	}
	return parsed
}

// parseLocked returns the valid entries parsed, each parsed once per value it takes.
func (r *records) parseLocked(entries map[string]string) map[string]accountRecord {
	if r.parsed == nil {
		r.parsed = map[string]recordEntry{}
	}
	out := make(map[string]accountRecord, len(entries))
	for key, value := range entries {
		p, ok := r.parsed[key]
		if !ok || p.raw != value {
			p = recordEntry{raw: value}
			p.valid = json.Unmarshal([]byte(value), &p.rec) == nil && p.rec.valid(key)
			r.parsed[key] = p
		}
		if p.valid {
			out[key] = p.rec
		}
	}
	for key := range r.parsed {
		if _, ok := entries[key]; !ok {
			delete(r.parsed, key)
		}
	}
	return out
}

type recordEntry struct {
	raw   string
	rec   accountRecord
	valid bool
}

// adoptLocked makes a's count what the record says now (entries, nil for no record): the
// entries naming any of a's keys, written by this controller or another, the highest
// count among them. An entry gone means its user got a token meanwhile.
func (l *lockouts) adoptLocked(a *account, entries map[string]string, parsed map[string]accountRecord) {
	if entries == nil {
		return
	}
	mine := map[string]string{}
	for key, rec := range parsed {
		if slices.ContainsFunc(rec.Keys, func(k string) bool { return slices.Contains(a.keys, k) }) {
			mine[key] = entries[key]
		}
	}
	if v, ok := mine[a.keys[0]]; len(mine) <= 1 && ((ok && v == a.written) || (!ok && a.written == "")) {
		return // as this controller last wrote it: what it knows since is newer
	}
	var found *accountRecord
	for key, value := range mine {
		var rec accountRecord
		_ = json.Unmarshal([]byte(value), &rec)
		if found == nil || rec.Refusals > found.Refusals {
			found = &rec
		}
		if key != a.keys[0] {
			l.records.record.Stage(key, nil) // one entry per user, under a's first key
		}
	}
	if found == nil {
		if a.recorded {
			l.resetLocked(a)
			a.recorded = false
			l.records.count--
		}
		return
	}
	if found.Refusals < a.refusals {
		l.resetLocked(a)
	}
	turns := found.Turns
	if len(turns) == 0 {
		turns = []string{""}
	}
	for i := range found.Refusals - a.refusals {
		l.refusedLocked(a, turns[i%len(turns)])
	}
	for _, source := range found.Proven {
		if len(a.proven) < maxProvenSources {
			a.proven[source] = true
		}
	}
	a.linked = a.linked || found.Linked
	for _, k := range found.Keys {
		if other := l.accounts[k]; other == nil {
			a.keys = append(a.keys, k)
			l.accounts[k] = a
		}
	}
	if !a.recorded {
		a.recorded = true
		l.records.count++
	}
	l.countHeldLocked()
}
