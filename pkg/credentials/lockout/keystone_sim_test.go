package lockout

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/samplecrd/network-controller/pkg/credentials/tokenrequests"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

const gateKeystone = "https://keystone.example.com/v3"

// simUser is a Keystone user as its database holds it.
type simUser struct {
	id, name, domainID, domainName, password string
	failures                                 int // refused logins in a row
	locked                                   bool
}

// simKeystone answers password logins as Keystone on MariaDB does for the spellings the
// gate admits: IDs and names compared without case, a failure counted per user, the user
// locked at 3 in a row.
type simKeystone struct {
	mu    sync.Mutex
	users []*simUser
	// maxFailures is the most failures in a row any user had.
	maxFailures int
}

func (k *simKeystone) find(c simCreds) *simUser {
	for _, u := range k.users {
		if c.userID != "" {
			if strings.EqualFold(u.id, c.userID) {
				return u
			}
			continue
		}
		inDomain := strings.EqualFold(u.domainID, c.domainID) && c.domainID != "" || strings.EqualFold(u.domainName, c.domainName) && c.domainName != ""
		if inDomain && strings.EqualFold(u.name, c.userName) {
			return u
		}
	}
	return nil
}

// login answers one token request.
func (k *simKeystone) login(c simCreds) (string, *simUser) {
	k.mu.Lock()
	defer k.mu.Unlock()
	u := k.find(c)
	switch {
	case u == nil:
		return tokenrequests.Rejected, nil
	case u.locked:
		return tokenrequests.Rejected, nil
	case u.password != c.password:
		u.failures++
		k.maxFailures = max(k.maxFailures, u.failures)
		if u.failures >= 3 {
			u.locked = true
		}
		return tokenrequests.Rejected, nil
	}
	u.failures = 0
	return tokenrequests.OK, u
}

// simCreds are a password Secret's cloud.
type simCreds struct {
	namespace, secret                      string
	userID, userName, domainID, domainName string
	password                               string
}

func (c simCreds) requester(t testing.TB) neutronclient.TokenRequester {
	t.Helper()
	user, domain, err := CanonicalUser(c.userID, c.userName, c.domainID, c.domainName)
	if err != nil {
		t.Fatalf("%+v: %v", c, err)
	}
	return neutronclient.TokenRequester{Account: user, Keystone: gateKeystone, LockoutUser: user, LockoutDomain: domain,
		Source: c.namespace + "/" + c.secret, Turn: c.namespace}
}

// try asks g for a token with c against k, as the controller does: through the gate, and
// the token's user told back. It returns the outcome, or "held".
func try(t testing.TB, g *Gate, k *simKeystone, c simCreds) string {
	t.Helper()
	who := c.requester(t)
	done, err := g.Admit(context.Background(), who)
	if err != nil {
		var held *AccountHeldError
		if !errors.As(err, &held) {
			t.Fatalf("%s: %v, want an *AccountHeldError", who.Source, err)
		}
		return "held"
	}
	outcome, u := k.login(c)
	done(outcome)
	if u != nil {
		g.Authenticated(who, neutronclient.TokenUser{ID: u.id, Name: u.name, DomainID: u.domainID, DomainName: u.domainName})
	}
	return outcome
}

func newSimKeystone() *simKeystone {
	return &simKeystone{users: []*simUser{
		{id: "5f3a0c1e9b7d4e2f8a6c1d3e5f7a9b0c", name: "alice", domainID: "default", domainName: "Default", password: "a-secret"},
		{id: "0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e", name: "bob", domainID: "default", domainName: "Default", password: "b-secret"},
		{id: "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b", name: "bob", domainID: "d2", domainName: "Other", password: "b2-secret"},
		{id: "1111aaaa2222bbbb3333cccc4444dddd", name: "carol", domainID: "default", domainName: "Default", password: "c-secret"},
	}}
}
