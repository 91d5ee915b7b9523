package lockout

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// Keystone locks a password's user out after lockout_failure_attempts refused
// authentications in a row (3 is a common setting; a token issued resets the count), and
// a tenant's clouds.yaml may name any user: another team's, or the controller's own.
const (
	// MaxRefusalsInARow is how many refused token requests in a row the controller sends
	// for one user, whatever the Secrets, namespaces and versions naming it. Once a user's
	// credentials got a token here, a Secret that never did gets one refusal less: the
	// last is kept for the credentials that work (a renewal, a rotated Secret).
	MaxRefusalsInARow = 2
	// MaxRefusedUsersPerNamespace bounds the users with refusals in a row a namespace's
	// Secrets may have caused: past it, the namespace's Secrets naming another user are
	// not tried. It bounds what the gate remembers: users with refusals are never
	// forgotten, or a flood of made-up names could wipe a real user's count.
	MaxRefusedUsersPerNamespace = 64
	// maxQuietAccounts bounds the users without refusals remembered (for their ID and
	// name, and the credentials that got a token).
	maxQuietAccounts = 4096
	maxProvenSources = 16
)

// lockouts counts each password user's refused token requests in a row, and keeps the
// counts in a record that outlives the process (records.go) when it has one.
type lockouts struct {
	onHeldCount func(int)
	records     *records

	mu sync.Mutex
	// accounts by the hash of Keystone and user (TokenRequester.LockoutUser); a user's ID
	// and name lead to one account once a token named both.
	accounts map[string]*account
	// refusedBy counts, per turn (namespace), the accounts with refusals in a row it
	// caused; held counts the accounts at MaxRefusalsInARow.
	refusedBy map[string]int
	held      int
}

type account struct {
	// busy is held from a request's admission until its outcome is known, so that
	// refusals are counted, and recorded, exactly.
	busy sync.Mutex
	// The rest is guarded by lockouts.mu.
	// keys are the account's keys in lockouts.accounts, the first naming its record.
	keys     []string
	refusals int
	// turns caused the refusals in a row.
	turns map[string]bool
	// proven are (the hashes of) the sources whose credentials got a token of the user.
	proven map[string]bool
	// contested: Keystone refused the user once. Such an account is kept in memory with
	// the credentials that worked.
	contested bool
	// linked: a token showed the user's ID and name, which are both among keys. Until
	// then keystone (a hash) and kind (byID, byName) say what the account is of.
	linked   bool
	keystone string
	kind     int
	recorded bool
	// staged and written are the account's entry as last staged and as this controller
	// last wrote it ("" for none): an entry still as written is this controller's own.
	staged, written string
}

func newLockouts(onHeldCount func(int)) *lockouts {
	if onHeldCount == nil {
		onHeldCount = func(int) {}
	}
	return &lockouts{onHeldCount: onHeldCount, accounts: map[string]*account{}, refusedBy: map[string]int{}}
}

// AccountHeldError is a token request not sent: another refusal could get the user
// locked out.
type AccountHeldError struct{ Message string }

func (e *AccountHeldError) Error() string { return e.Message }

func keyOf(who neutronclient.TokenRequester) string {
	return accountKey(who.Keystone, who.LockoutUser)
}

func accountKey(keystone, user string) string {
	return hashed(keystone+" "+canonicalLockoutUser(user), accountKeyLength)
}

// unlinkedMax are, per Keystone, the most refusals in a row of an account by ID and of
// one by name that no token linked yet: any two of them may be one user.
type unlinkedMax map[string]*[2]int

const byID, byName = 0, 1

func (l *lockouts) unlinkedMaxLocked() unlinkedMax {
	m := unlinkedMax{}
	note := func(keystone string, kind, refusals int) {
		if m[keystone] == nil {
			m[keystone] = &[2]int{}
		}
		m[keystone][kind] = max(m[keystone][kind], refusals)
	}
	for _, a := range l.accounts {
		if !a.linked && a.refusals > 0 {
			note(a.keystone, a.kind, a.refusals)
		}
	}
	// Other controllers' accounts count too: this one may never have asked for them.
	for _, rec := range l.records.unlinked() {
		kind := byName
		if rec.ByID {
			kind = byID
		}
		note(rec.Keystone, kind, rec.Refusals)
	}
	return m
}

// limitOf is how many refusals in a row a's user may get. Until a token showed a user's ID
// and its name, a user named both ways has two accounts, whose refusals Keystone adds up,
// and no one can tell which ID goes with which name: so an account by ID gets one, and
// one by name the rest of MaxRefusalsInARow once any account by ID of its Keystone was
// refused (and none while one by name has all of them).
func (m unlinkedMax) limitOf(a *account) int {
	if a == nil || a.linked {
		return MaxRefusalsInARow
	}
	other := 0
	if got := m[a.keystone]; got != nil {
		other = got[1-a.kind]
	}
	if a.kind == byID {
		return max(0, min(1, MaxRefusalsInARow-other))
	}
	return MaxRefusalsInARow - min(other, 1)
}

// check returns an *AccountHeldError when who may not ask now.
func (l *lockouts) check(who neutronclient.TokenRequester) error {
	if who.LockoutUser == "" {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.holdsLocked(l.accounts[keyOf(who)], who)
}

func (l *lockouts) holdsLocked(a *account, who neutronclient.TokenRequester) error {
	if err := l.records.holds(who, a == nil || !a.recorded, l.refusedBy[who.Turn], len(l.refusedBy)); err != nil {
		return err
	}
	switch {
	case a == nil:
		if l.refusedBy[who.Turn] >= MaxRefusedUsersPerNamespace {
			return &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: Keystone refused %d users in a row for credentials of %s, the most the controller tries; it tries no other user for them until Keystone issues a token for one of those",
				who.Account, MaxRefusedUsersPerNamespace, who.Turn)}
		}
	case a.refusals >= l.unlinkedMaxLocked().limitOf(a):
		return &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: Keystone refused the user %d times in a row, and one more could lock it out; the controller asks again once credentials of it get a token here%s",
			who.Account, a.refusals, l.records.liftHint(a.keys[0]))}
	case a.refusals == MaxRefusalsInARow-1 && a.linked && len(a.proven) > 0 && !a.proven[sourceKey(who.Source)]:
		return &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: Keystone refused the user lately, and the one more refusal that is safe is kept for credentials of it that got a token before; asking again once they do",
			who.Account)}
	}
	return nil
}

// begin admits who's request, one at a time per user; done records its outcome. With a
// record, the request is recorded as refused before it is sent, so that a crash while it
// is under way cannot forget a refusal.
func (l *lockouts) begin(ctx context.Context, who neutronclient.TokenRequester) (done func(outcome string), err error) {
	if who.LockoutUser == "" {
		return func(string) {}, nil
	}
	key := keyOf(who)
	l.mu.Lock()
	a := l.accounts[key]
	if err := l.holdsLocked(a, who); err != nil {
		l.mu.Unlock()
		return nil, err
	}
	if a == nil {
		a = l.addLocked(key, who.Keystone, who.LockoutUser)
	}
	l.mu.Unlock()

	a.busy.Lock()
	unlock := l.records.deciding()
	for attempt := 1; ; attempt++ {
		// Every controller of the cluster counts in the record: read it as it is now, and
		// record the request only if no one wrote meanwhile.
		var latest map[string]string
		if latest, err = l.records.latest(ctx, who); err != nil {
			break
		}
		l.mu.Lock()
		l.adoptLocked(a, latest, l.records.noteReadLocked(latest))
		err = l.holdsLocked(a, who) // a request before this one may have been refused
		if err == nil {
			l.records.stageLocked(a, 1, who.Turn)
		}
		l.mu.Unlock()
		if err == nil {
			err = l.records.flush(ctx, who, attempt < maxRecordConflicts)
		}
		if err == nil {
			l.mu.Lock()
			a.written = a.staged
			l.mu.Unlock()
		}
		if !errors.Is(err, errRecordConflict) {
			break
		}
	}
	unlock()
	if err != nil {
		a.busy.Unlock()
		return nil, err
	}
	return func(outcome string) {
		// Written before the next request of any user is decided: a later read of the
		// record then finds this outcome, not the request it recorded as refused.
		unlock := l.records.deciding()
		defer unlock()
		l.mu.Lock()
		switch outcome {
		case neutronclient.TokenOK:
			l.resetLocked(a)
			if len(a.proven) < maxProvenSources {
				a.proven[sourceKey(who.Source)] = true
			}
		case neutronclient.TokenRejected:
			l.refusedLocked(a, who.Turn)
		}
		l.records.stageLocked(a, 0, "")
		l.mu.Unlock()
		// Only a refusal must be durable before the next request, and it already is: a
		// write that fails leaves one refusal too many in the record, never one too few.
		l.records.flushOutcome(who, a, &l.mu)
		a.busy.Unlock()
	}, nil
}

func (l *lockouts) addLocked(key, keystone, user string) *account {
	if len(l.accounts) >= maxQuietAccounts {
		l.forgetQuietLocked()
	}
	a := &account{keys: []string{key}, turns: map[string]bool{}, proven: map[string]bool{}, keystone: keystoneKey(keystone), kind: byName}
	if strings.HasPrefix(user, "id:") {
		a.kind = byID
	}
	l.accounts[key] = a
	return a
}

// keystoneKey names a Keystone in an account and its record entry.
func keystoneKey(keystone string) string { return hashed(keystone, sourceKeyLength) }

func (l *lockouts) refusedLocked(a *account, turn string) {
	a.refusals++
	a.contested = true
	if !a.turns[turn] {
		a.turns[turn] = true
		l.refusedBy[turn]++
	}
	l.countHeldLocked()
}

// countHeldLocked tells onHeldCount how many accounts are held, when that changed.
func (l *lockouts) countHeldLocked() {
	held, seen, m := 0, map[*account]bool{}, l.unlinkedMaxLocked()
	for _, a := range l.accounts {
		if !seen[a] && a.refusals > 0 && a.refusals >= m.limitOf(a) {
			held++
		}
		seen[a] = true
	}
	if held != l.held {
		l.held = held
		l.onHeldCount(held)
	}
}

func (l *lockouts) resetLocked(a *account) {
	defer l.countHeldLocked()
	a.refusals = 0
	for turn := range a.turns {
		if l.refusedBy[turn]--; l.refusedBy[turn] <= 0 {
			delete(l.refusedBy, turn)
		}
	}
	clear(a.turns)
}

// forgetQuietLocked drops the accounts never refused that no request holds.
func (l *lockouts) forgetQuietLocked() {
	for key, a := range l.accounts {
		if !a.contested && a.refusals == 0 && a.busy.TryLock() {
			a.busy.Unlock()
			delete(l.accounts, key)
		}
	}
}

// link makes the user's ID and name (at who's Keystone) one account, as a token of it
// showed. A password's token resets the count Keystone keeps of the user, so the
// merged account starts again; another method's does not, so their refusals add up.
func (l *lockouts) link(who neutronclient.TokenRequester, userID, userName string) {
	if userID == "" || userName == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	byID, byName := accountKey(who.Keystone, "id:"+userID), accountKey(who.Keystone, "name:"+userName)
	a, b := l.accounts[byID], l.accounts[byName]
	switch {
	case a == nil && b == nil:
		a = l.addLocked(byID, who.Keystone, "id:"+userID)
	case a == nil:
		a = b
	case b != nil && a != b:
		if !a.busy.TryLock() {
			return // linked by a later token
		}
		defer a.busy.Unlock()
		if !b.busy.TryLock() {
			return
		}
		defer b.busy.Unlock()
		l.mergeLocked(a, b)
	}
	for _, key := range []string{byID, byName} {
		if !slices.Contains(a.keys, key) {
			a.keys = append(a.keys, key)
		}
		l.accounts[key] = a
	}
	a.linked = true
	if who.LockoutUser != "" {
		l.resetLocked(a)
	}
	l.countHeldLocked()
	l.records.stageLocked(a, 0, "")
	l.records.flushLater()
}

// mergeLocked adds b, another spelling of a's user, to a.
func (l *lockouts) mergeLocked(a, b *account) {
	refusals, turns := b.refusals, slices.Sorted(maps.Keys(b.turns))
	if len(turns) == 0 {
		turns = []string{""}
	}
	l.resetLocked(b)
	for i := range refusals { // b's refusals are the user's too
		l.refusedLocked(a, turns[i%len(turns)])
	}
	for source := range b.proven {
		if len(a.proven) < maxProvenSources {
			a.proven[source] = true
		}
	}
	a.contested = a.contested || b.contested
	a.linked = a.linked || b.linked
	if b.recorded {
		l.records.removeLocked(b)
	}
	for _, key := range b.keys {
		if !slices.Contains(a.keys, key) {
			a.keys = append(a.keys, key)
		}
		l.accounts[key] = a
	}
}

// prove records that who's credentials got a token of its user.
func (l *lockouts) prove(who neutronclient.TokenRequester) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a := l.accounts[keyOf(who)]; a != nil && len(a.proven) < maxProvenSources {
		a.proven[sourceKey(who.Source)] = true
	}
}
