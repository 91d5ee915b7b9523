package tenancy

import (
	"context"
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
// counts in a record that outlives the process (lockout_records.go) when it has one.
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
	// contested: Keystone refused the user once. Such an account is kept, in memory and
	// in the record, with the credentials that worked, so that a restart does not let a
	// hostile Secret spend the refusal kept for them.
	contested bool
	recorded  bool
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
	return hashed(who.Keystone+" "+who.LockoutUser, accountKeyLength)
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
	if err := l.records.holds(who, a == nil || !a.recorded); err != nil {
		return err
	}
	switch {
	case a == nil:
		if l.refusedBy[who.Turn] >= MaxRefusedUsersPerNamespace {
			return &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: Keystone refused %d users in a row for credentials of %s, the most the controller tries; it tries no other user for them until Keystone issues a token for one of those",
				who.Account, MaxRefusedUsersPerNamespace, who.Turn)}
		}
	case a.refusals >= MaxRefusalsInARow:
		return &AccountHeldError{fmt.Sprintf("not asking Keystone for a token for %s: Keystone refused the user %d times in a row, and one more could lock it out; the controller asks again once credentials of it get a token here%s",
			who.Account, a.refusals, l.records.liftHint(a.keys[0]))}
	case a.refusals == MaxRefusalsInARow-1 && len(a.proven) > 0 && !a.proven[sourceKey(who.Source)]:
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
		a = l.addLocked(key)
	}
	l.mu.Unlock()

	a.busy.Lock()
	l.mu.Lock()
	err = l.holdsLocked(a, who) // a request before this one may have been refused
	if err == nil {
		l.records.stageLocked(a, 1, who.Turn)
	}
	l.mu.Unlock()
	if err == nil {
		err = l.records.flush(ctx, who)
	}
	if err != nil {
		a.busy.Unlock()
		return nil, err
	}
	return func(outcome string) {
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
		a.busy.Unlock()
		// Only a refusal must be durable before the next request, and it already is.
		l.records.flushLater()
	}, nil
}

func (l *lockouts) addLocked(key string) *account {
	if len(l.accounts) >= maxQuietAccounts {
		l.forgetQuietLocked()
	}
	a := &account{keys: []string{key}, turns: map[string]bool{}, proven: map[string]bool{}}
	l.accounts[key] = a
	return a
}

func (l *lockouts) refusedLocked(a *account, turn string) {
	a.refusals++
	a.contested = true
	if !a.turns[turn] {
		a.turns[turn] = true
		l.refusedBy[turn]++
	}
	if a.refusals == MaxRefusalsInARow {
		l.held++
		l.onHeldCount(l.held)
	}
}

func (l *lockouts) resetLocked(a *account) {
	if a.refusals >= MaxRefusalsInARow {
		l.held--
		l.onHeldCount(l.held)
	}
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
	byID := hashed(who.Keystone+" id:"+userID, accountKeyLength)
	byName := hashed(who.Keystone+" name:"+strings.ToLower(userName), accountKeyLength)
	a, b := l.accounts[byID], l.accounts[byName]
	switch {
	case a == nil && b == nil:
		a = l.addLocked(byID)
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
	if who.LockoutUser != "" {
		l.resetLocked(a)
	}
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
