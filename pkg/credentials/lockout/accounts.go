package lockout

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/samplecrd/network-controller/pkg/credentials/tokenrequests"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

const (
	// maxDecideConflicts bounds the decisions of one request met by other controllers' writes.
	maxDecideConflicts = 5
	// maxKnownUsers bounds what the process remembers of tokens' users.
	maxKnownUsers = 4096
	// cacheFor is how long the last read may hold a request back before its turn: after
	// it, the request reads the record again.
	cacheFor = 10 * time.Second
	// maxCleanedPerWrite bounds the entries a write removes besides what it decided.
	maxCleanedPerWrite = 16
)

// lockouts counts each password user's refused token requests in a row in a Record
// shared by every controller of the cluster (rules.go says what is admitted).
type lockouts struct {
	record      Record
	where       string
	onError     func(error)
	onHeldCount func(int)
	now         func() time.Time

	// qmu guards queue and writing: the changes waiting, and whether a goroutine is
	// deciding and writing batches of them (one at a time, so that the process's own
	// writes never conflict with each other).
	qmu     sync.Mutex
	queue   []*queuedChange
	writing bool
	// parser is used by the one goroutine writing.
	parser entryParser

	mu sync.Mutex
	// users are the users tokens showed, by the key of their ID.
	users map[string]*knownUser
	// busy are the spellings with a request of this process under way; a request of the
	// same spelling waits for it rather than being held.
	busy map[string]chan struct{}
	// last is the record as last read, and when.
	last     map[string]entry
	lastRead time.Time
	held     int
}

func newLockouts(onHeldCount func(int), now func() time.Time) *lockouts {
	if onHeldCount == nil {
		onHeldCount = func(int) {}
	}
	return &lockouts{record: newMemoryRecord(), where: "the controller's memory", onError: func(error) {}, onHeldCount: onHeldCount, now: now,
		users: map[string]*knownUser{}, busy: map[string]chan struct{}{}}
}

// AccountHeldError is a token request not sent: another refusal could get the user
// locked out, or the count could not be kept.
type AccountHeldError struct{ Message string }

func (e *AccountHeldError) Error() string { return e.Message }

// spellingKey names one spelling of a user at one Keystone.
func spellingKey(keystone, user string) string { return hashed(keystone+" "+user, keyLength) }

func requestOf(who neutronclient.TokenRequester) request {
	r := request{key: spellingKey(who.Keystone, who.LockoutUser), byName: strings.HasPrefix(who.LockoutUser, "name:"),
		source: hashed(who.Source, hashLength), turn: hashed(who.Turn, hashLength)}
	if r.byName {
		r.domain = hashed(who.Keystone+" "+who.LockoutDomain, hashLength)
	}
	return r
}

// precheck holds who back on the record as last read, before it spends a turn.
func (l *lockouts) precheck(who neutronclient.TokenRequester) error {
	if who.LockoutUser == "" {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last == nil || l.now().Sub(l.lastRead) > cacheFor {
		return nil
	}
	r := requestOf(who)
	if reason, _ := l.viewLocked(l.last).heldReason(r); reason != "" && !l.underWayHereLocked(r.key) {
		return l.heldError(who, r.key, reason)
	}
	return nil
}

func (l *lockouts) underWayHereLocked(key string) bool { return l.busy[key] != nil }

// viewLocked returns the view of entries; its users are a copy, as link replaces users
// while decisions read them.
func (l *lockouts) viewLocked(entries map[string]entry) view {
	return view{entries: entries, users: maps.Clone(l.users), now: l.now()}
}

func (l *lockouts) heldError(who neutronclient.TokenRequester, key, reason string) error {
	return &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: %s (or, once the user logged in elsewhere, the operator removes entry %s of %s)",
		who.Account, reason, key, l.where)}
}

// begin admits who's request, recorded as under way before it is sent, so that a crash
// while it is under way cannot forget a refusal; done records its outcome.
func (l *lockouts) begin(ctx context.Context, who neutronclient.TokenRequester) (done func(outcome string), err error) {
	if who.LockoutUser == "" {
		return func(string) {}, nil
	}
	r := requestOf(who)
	if err := l.waitIdle(ctx, r.key); err != nil {
		return nil, fmt.Errorf("not asking Keystone for a token for %s: waiting for another request of the user: %w", who.Account, err)
	}
	err = l.change(ctx, who, func(v view) (map[string]entry, error) {
		if reason, _ := v.heldReason(r); reason != "" {
			return nil, l.heldError(who, r.key, reason)
		}
		if reason := v.roomReason(r); reason != "" {
			return nil, &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: %s (%s)", who.Account, reason, l.where)}
		}
		_, linked := v.heldReason(r)
		return map[string]entry{r.key: v.admitted(r, linked)}, nil
	})
	if err != nil {
		l.setIdle(r.key)
		return nil, err
	}
	return func(outcome string) {
		defer l.setIdle(r.key)
		err := l.change(context.Background(), who, func(v view) (map[string]entry, error) {
			e := v.entries[r.key]
			e.Pending, e.Name = 0, r.byName
			switch outcome {
			case tokenrequests.OK:
				e.Refusals = 0
			case tokenrequests.Rejected:
				e.Refusals = min(e.Refusals+1, MaxRefusalsInARow)
			}
			return map[string]entry{r.key: e}, nil
		})
		if err != nil {
			// The entry stays under way: once pendingTimeout passed, it counts as refused,
			// one refusal too many at worst, never one too few.
			l.onError(fmt.Errorf("recording the outcome (%s) of a token request of %s in %s: %w", outcome, who.Account, l.where, err))
		}
	}, nil
}

// waitIdle waits until no request of this process for key is under way, and marks key busy.
func (l *lockouts) waitIdle(ctx context.Context, key string) error {
	for {
		l.mu.Lock()
		ch := l.busy[key]
		if ch == nil {
			l.busy[key] = make(chan struct{})
			l.mu.Unlock()
			return nil
		}
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (l *lockouts) setIdle(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if ch := l.busy[key]; ch != nil {
		close(ch)
		delete(l.busy, key)
	}
}

// change reads the record, lets decide turn it into the entries to write, and writes
// them on the version read; on a conflict with another writer it reads and decides again.
// Changes asked for meanwhile are decided together, in order, on one read and written in
// one write: a flood of token requests costs the record one read and one write per batch,
// not per request, so a quiet namespace's request does not wait behind each of them.
func (l *lockouts) change(_ context.Context, who neutronclient.TokenRequester, decide func(view) (map[string]entry, error)) error {
	q := &queuedChange{who: who, decide: decide, done: make(chan error, 1)}
	l.qmu.Lock()
	l.queue = append(l.queue, q)
	lead := !l.writing
	l.writing = true
	l.qmu.Unlock()
	if lead {
		l.writeBatches()
	}
	return <-q.done
}

// queuedChange is a change waiting for the batch it is decided in.
type queuedChange struct {
	who    neutronclient.TokenRequester
	decide func(view) (map[string]entry, error)
	done   chan error
}

// writeBatches decides and writes the queued changes, batch after batch, until none waits.
func (l *lockouts) writeBatches() {
	for {
		l.qmu.Lock()
		batch := l.queue
		l.queue = nil
		if len(batch) == 0 {
			l.writing = false
			l.qmu.Unlock()
			return
		}
		l.qmu.Unlock()
		errs := l.decideBatch(batch)
		for i, q := range batch {
			q.done <- errs[i]
		}
	}
}

// decideBatch decides batch on one read of the record and writes what it decided in one
// write, deciding again on a conflict. It returns each change's outcome.
func (l *lockouts) decideBatch(batch []*queuedChange) []error {
	ctx := context.Background() // the record's calls have their own timeouts
	errs := make([]error, len(batch))
	for attempt := 1; ; attempt++ {
		data, version, err := l.record.Read(ctx)
		if err != nil {
			l.onError(fmt.Errorf("reading %s for token requests: %w", l.where, err))
			for i, q := range batch {
				errs[i] = &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: the controller could not read its record of refused token requests (its log says why); retrying", q.who.Account)}
			}
			return errs
		}
		read, skipped := l.parser.parse(data)
		entries := maps.Clone(read)
		l.mu.Lock()
		l.noteReadLocked(read)
		v := l.viewLocked(entries)
		l.mu.Unlock()
		changes := map[string]*string{}
		for i, q := range batch {
			decided, err := q.decide(v)
			errs[i] = err
			for key, e := range decided {
				changes[key] = e.encode()
				if e.empty() {
					delete(entries, key) // seen so by the next change of the batch
				} else {
					entries[key] = e
				}
			}
		}
		if len(changes) == 0 {
			return errs
		}
		for i, key := range skipped {
			if i == maxCleanedPerWrite {
				break
			}
			if _, ok := changes[key]; !ok {
				changes[key] = nil // nothing the controller counts by
			}
		}
		err = l.record.Write(ctx, version, changes)
		if err == nil {
			l.mu.Lock()
			l.noteReadLocked(entries)
			l.mu.Unlock()
			return errs
		}
		if !apierrors.IsConflict(err) || attempt >= maxDecideConflicts {
			l.onError(fmt.Errorf("recording token requests in %s: %w", l.where, err))
			for i, q := range batch {
				if errs[i] == nil {
					errs[i] = &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: the controller could not record the request first (its log says why); retrying", q.who.Account)}
				}
			}
			return errs
		}
	}
}

func (l *lockouts) noteReadLocked(entries map[string]entry) {
	l.last, l.lastRead = entries, l.now()
	if held := l.viewLocked(entries).heldCount(); held != l.held {
		l.held = held
		l.onHeldCount(held)
	}
}

// link records what a token of who's credentials showed of its user. Keystone reset the
// user's count: the entry of the user's other spelling is reset too where it is surely
// the user's (its ID; its name refused in the user's domain).
func (l *lockouts) link(who neutronclient.TokenRequester, user neutronclient.TokenUser) {
	id, err := CanonicalUserID(user.ID)
	if err != nil {
		return
	}
	u := spellingKey(who.Keystone, "id:"+id)
	k := &knownUser{proven: map[string]bool{}}
	if name, err := CanonicalName(user.Name); err == nil {
		k.name = spellingKey(who.Keystone, "name:"+name)
	}
	for _, d := range []struct{ kind, value string }{{"id:", user.DomainID}, {"name:", user.DomainName}} {
		if spelt, err := CanonicalName(d.value); err == nil {
			k.domains = append(k.domains, hashed(who.Keystone+" "+d.kind+spelt, hashLength))
		}
	}
	l.mu.Lock()
	if old := l.users[u]; old != nil {
		k.proven = maps.Clone(old.proven)
	} else if len(l.users) >= maxKnownUsers {
		for key := range l.users { // forget one: at worst a user is counted by spelling again
			delete(l.users, key)
			break
		}
	}
	if who.Source != "" && len(k.proven) < maxProven {
		k.proven[hashed(who.Source, hashLength)] = true
	}
	l.users[u] = k
	l.mu.Unlock()
	if who.LockoutUser == "" || k.name == "" {
		return
	}
	err = l.change(context.Background(), who, func(v view) (map[string]entry, error) {
		other := u
		if !strings.HasPrefix(who.LockoutUser, "name:") {
			other = k.name
		}
		e, ok := v.entries[other]
		if !ok || v.underWay(other) || e.Refusals == 0 || (e.Name && !slices.Contains(k.domains, e.Domain)) {
			return nil, nil
		}
		e.Refusals, e.Pending = 0, 0
		return map[string]entry{other: e}, nil
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		l.onError(fmt.Errorf("recording the token of %s in %s: %w", who.Account, l.where, err))
	}
}
