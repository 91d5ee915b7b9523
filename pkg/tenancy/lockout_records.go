package tenancy

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// RefusalRecord keeps the gate's counts where they outlive the process: changes are
// staged in order, and Flush returns once those staged before it are durable.
type RefusalRecord interface {
	Stage(key string, value *string)
	Flush(ctx context.Context) error
}

const (
	// MaxRecordedUsers bounds the users in the record, which a ConfigMap (at most 1 MiB)
	// holds: past it, a user not in the record is not tried.
	MaxRecordedUsers = 1500
	// Keys are hashes: the record holds no user name, and its entries have one size.
	accountKeyLength = 32
	sourceKeyLength  = 16
)

func hashed(s string, length int) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:length]
}

func sourceKey(source string) string { return hashed(source, sourceKeyLength) }

// accountRecord is an account's entry in the record, under its first key.
type accountRecord struct {
	Keys     []string `json:"keys"`
	Refusals int      `json:"refusals"`
	Turns    []string `json:"turns,omitempty"`
	Proven   []string `json:"proven,omitempty"`
}

// records keeps lockouts' accounts in a RefusalRecord. A nil *records keeps nothing: the
// counts then live as long as the process. Its fields are guarded by lockouts.mu.
type records struct {
	record  RefusalRecord
	where   string
	onError func(error)
	// restored: the record was read; until then no counted request is sent.
	restored bool
	count    int
}

// holds returns an *AccountHeldError when who may not ask before the record allows it.
func (r *records) holds(who neutronclient.TokenRequester, unrecorded bool) error {
	switch {
	case r == nil:
		return nil
	case !r.restored:
		return &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: the controller has not read its record of refused token requests yet",
			who.Account)}
	case unrecorded && r.count >= MaxRecordedUsers:
		return &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: the record of refused token requests holds %d users, the most it keeps; asking once one of them gets a token",
			who.Account, MaxRecordedUsers)}
	}
	return nil
}

// liftHint says how a held account is let go besides a token of it.
func (r *records) liftHint(key string) string {
	if r == nil {
		return " or the controller restarts"
	}
	return fmt.Sprintf(" (or, once the user logged in elsewhere, the operator removes entry %s of %s and restarts the controller)", key, r.where)
}

// stageLocked stages a's entry, counting pending more refusals (of turn) than it has.
func (r *records) stageLocked(a *account, pending int, turn string) {
	if r == nil {
		return
	}
	refusals := a.refusals + pending
	if refusals == 0 && !a.contested {
		if a.recorded {
			r.removeLocked(a)
		}
		return
	}
	turns := maps.Clone(a.turns)
	if pending > 0 {
		turns[turn] = true
	}
	value, err := json.Marshal(accountRecord{Keys: a.keys, Refusals: refusals,
		Turns: slices.Sorted(maps.Keys(turns)), Proven: slices.Sorted(maps.Keys(a.proven))})
	if err != nil {
		panic(fmt.Sprintf("encoding a lockout record: %v", err)) // strings and ints only
	}
	v := string(value)
	r.record.Stage(a.keys[0], &v)
	if !a.recorded {
		a.recorded = true
		r.count++
	}
}

func (r *records) removeLocked(a *account) {
	r.record.Stage(a.keys[0], nil)
	a.recorded = false
	r.count--
}

// flush makes what is staged durable before who's request is sent.
func (r *records) flush(ctx context.Context, who neutronclient.TokenRequester) error {
	if r == nil {
		return nil
	}
	if err := r.record.Flush(ctx); err != nil {
		r.onError(fmt.Errorf("recording a token request of %s in %s: %w", who.Account, r.where, err))
		return &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: the controller could not record the request first (its log says why); retrying",
			who.Account)}
	}
	return nil
}

// flushLater writes what is staged without waiting: nothing after it depends on it.
func (r *records) flushLater() {
	if r == nil {
		return
	}
	go func() {
		if err := r.record.Flush(context.Background()); err != nil {
			r.onError(fmt.Errorf("recording outcomes of token requests in %s: %w", r.where, err))
		}
	}()
}

// restoreLocked adds the record's entries to l's accounts. It returns how many entries
// it skipped as not written by the controller.
func (l *lockouts) restoreLocked(entries map[string]string) (skipped int) {
	for _, key := range slices.Sorted(maps.Keys(entries)) {
		var rec accountRecord
		if err := json.Unmarshal([]byte(entries[key]), &rec); err != nil || !rec.valid(key) {
			skipped++
			continue
		}
		var a *account
		for _, k := range rec.Keys {
			if a = l.accounts[k]; a != nil {
				break
			}
		}
		if a == nil {
			a = &account{keys: []string{rec.Keys[0]}, turns: map[string]bool{}, proven: map[string]bool{}}
		}
		for _, k := range rec.Keys {
			if !slices.Contains(a.keys, k) {
				a.keys = append(a.keys, k)
			}
			l.accounts[k] = a
		}
		turns := rec.Turns
		if len(turns) == 0 {
			turns = []string{""}
		}
		for i := range rec.Refusals - a.refusals {
			l.refusedLocked(a, turns[i%len(turns)])
		}
		a.contested = true
		for _, source := range rec.Proven {
			if len(a.proven) < maxProvenSources {
				a.proven[source] = true
			}
		}
		if a.keys[0] != key {
			// Recorded under another key than this process chose: move the entry.
			l.records.record.Stage(key, nil)
			l.records.stageLocked(a, 0, "")
		} else if !a.recorded {
			a.recorded = true
			l.records.count++
		}
	}
	l.records.restored = true
	return skipped
}

// valid reports whether the entry under key is one the controller could have written.
func (rec accountRecord) valid(key string) bool {
	isKey := func(k string, length int) bool {
		_, err := hex.DecodeString(k)
		return len(k) == length && err == nil
	}
	return len(rec.Keys) > 0 && len(rec.Keys) <= 4 && rec.Keys[0] == key &&
		!slices.ContainsFunc(rec.Keys, func(k string) bool { return !isKey(k, accountKeyLength) }) &&
		rec.Refusals >= 0 && rec.Refusals <= 2*MaxRefusalsInARow && len(rec.Turns) <= 2*MaxRefusalsInARow &&
		len(rec.Proven) <= maxProvenSources &&
		!slices.ContainsFunc(rec.Proven, func(k string) bool { return !isKey(k, sourceKeyLength) })
}
