package lockout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutronclient"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// Record keeps the gate's counts where they outlive the process and where every
// controller of the cluster reads them: changes are staged in order, and Flush returns
// once those staged before it are durable. Latest reads the record as it is now; a Flush
// after it fails with a conflict (IsConflict) when another writer changed the record
// meanwhile, so that a count is never decided on a stale one.
type Record interface {
	Stage(key string, value *string)
	Flush(ctx context.Context) error
	Latest(ctx context.Context) (map[string]string, error)
}

const (
	// MaxRecordedUsers bounds the users in the record, which a ConfigMap (at most 1 MiB)
	// holds: past it, a user not in the record is tried only for a namespace holding
	// fewer entries than its share, up to twice as many in all.
	MaxRecordedUsers = 1500
	// maxRecordConflicts bounds the retries of a request whose recording met another
	// controller's write.
	maxRecordConflicts = 5
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
	Linked   bool     `json:"linked,omitempty"`
	// Keystone (a hash) and ByID say what an account no token linked yet is of.
	Keystone string `json:"keystone,omitempty"`
	ByID     bool   `json:"byID,omitempty"`
}

// records keeps lockouts' accounts in a Record. A nil *records keeps nothing: the
// counts then live as long as the process. Its fields are guarded by lockouts.mu.
type records struct {
	record  Record
	where   string
	onError func(error)
	// restored: the record was read; until then no counted request is sent.
	restored bool
	count    int
	// decide is held from reading the record to recording a request, one request at a
	// time: the write is checked against the version that read saw (Record).
	decide sync.Mutex
	// read are the entries of accounts no token linked, with refusals, as last read:
	// whichever controller wrote them; parsed caches the entries parsed. Guarded by
	// lockouts.mu.
	read   []accountRecord
	parsed map[string]recordEntry
}

// deciding holds r.decide and returns its release; nothing for no record.
func (r *records) deciding() func() {
	if r == nil {
		return func() {}
	}
	r.decide.Lock()
	return r.decide.Unlock
}

// holds returns an *AccountHeldError when who may not ask before the record allows it.
// Past MaxRecordedUsers, a namespace still within its share of the record (the bound
// shared by the namespaces holding entries) is admitted, so that no namespace fills it for
// another; turnEntries is how many entries who's namespace holds, turns how many
// namespaces hold any.
func (r *records) holds(who neutronclient.TokenRequester, unrecorded bool, turnEntries, turns int) error {
	switch {
	case r == nil:
		return nil
	case !r.restored:
		return &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: the controller has not read its record of refused token requests yet",
			who.Account)}
	case unrecorded && r.count >= MaxRecordedUsers && (r.count >= 2*MaxRecordedUsers || turnEntries >= MaxRecordedUsers/max(turns, 1)):
		return &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: the record of refused token requests holds %d users, and %s holds its share of them; asking once one of them gets a token",
			who.Account, r.count, who.Turn)}
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
	if refusals == 0 {
		// Forgotten once proven: a token reset Keystone's count too.
		if a.recorded {
			r.removeLocked(a)
		}
		a.staged = ""
		return
	}
	turns := maps.Clone(a.turns)
	if pending > 0 {
		turns[turn] = true
	}
	value, err := json.Marshal(accountRecord{Keys: a.keys, Refusals: refusals,
		Turns: slices.Sorted(maps.Keys(turns)), Proven: slices.Sorted(maps.Keys(a.proven)), Linked: a.linked,
		Keystone: a.keystone, ByID: a.kind == byID})
	if err != nil {
		panic(fmt.Sprintf("encoding a lockout record: %v", err)) // strings and ints only
	}
	v := string(value)
	a.staged = v
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

// errRecordConflict is a flush that met another controller's write: read and decide again.
var errRecordConflict = errors.New("the record changed meanwhile")

// flush makes what is staged durable before who's request is sent. A conflict with
// another writer is errRecordConflict while retry allows one more try.
func (r *records) flush(ctx context.Context, who neutronclient.TokenRequester, retry bool) error {
	if r == nil {
		return nil
	}
	if err := r.record.Flush(ctx); err != nil {
		if retry && apierrors.IsConflict(err) {
			return errRecordConflict
		}
		r.onError(fmt.Errorf("recording a token request of %s in %s: %w", who.Account, r.where, err))
		return &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: the controller could not record the request first (its log says why); retrying",
			who.Account)}
	}
	return nil
}

// flushOutcome writes the outcome staged for a, within writeTimeout; mu guards a.
func (r *records) flushOutcome(who neutronclient.TokenRequester, a *account, mu *sync.Mutex) {
	if r == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), outcomeWriteTimeout)
	defer cancel()
	if err := r.record.Flush(ctx); err != nil {
		if !apierrors.IsConflict(err) {
			r.onError(fmt.Errorf("recording the outcome of a token request of %s in %s: %w", who.Account, r.where, err))
		}
		return
	}
	mu.Lock()
	a.written = a.staged
	mu.Unlock()
}

// outcomeWriteTimeout bounds the write of an outcome, which the token request waits for.
const outcomeWriteTimeout = 10 * time.Second

// flushLater writes what is staged without waiting: nothing after it depends on it. A
// write that met another controller's is lost; the record then keeps the count as it was
// before the outcome, at worst one refusal more than Keystone's, until the next write.
func (r *records) flushLater() {
	if r == nil {
		return
	}
	go func() {
		if err := r.record.Flush(context.Background()); err != nil && !apierrors.IsConflict(err) {
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
			a = &account{keys: []string{rec.Keys[0]}, turns: map[string]bool{}, proven: map[string]bool{}, keystone: rec.Keystone, kind: byName}
			if rec.ByID {
				a.kind = byID
			}
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
		a.linked = a.linked || rec.Linked
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
		len(rec.Proven) <= maxProvenSources && (rec.Keystone == "" || isKey(rec.Keystone, sourceKeyLength)) &&
		!slices.ContainsFunc(rec.Proven, func(k string) bool { return !isKey(k, sourceKeyLength) })
}

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
