package lockout

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// Keystone locks a password's user out after lockout_failure_attempts refused logins in a
// row (3 is common; a token issued resets the count), and a tenant's clouds.yaml may name
// any user: another team's, or the controller's own.
const (
	// MaxRefusalsInARow is the most refused token requests in a row the controllers of
	// the cluster send for one Keystone user, whatever the Secrets, namespaces and
	// spellings naming it: fewer than Keystone's threshold of 3.
	MaxRefusalsInARow = 2
	// pendingTimeout is how long a request recorded as under way may take: one older was
	// lost with its controller, and counts as refused.
	pendingTimeout = 2 * time.Minute
)

// The rules, for one Keystone. A user is reached by two spellings: its ID, and its name
// (in any domain: names are counted without it). Each spelling has an entry.
//   - A spelling no token linked to the other gets one refusal in a row: whatever user it
//     stands for, its ID and its name together get at most two.
//   - Once a token showed a user's ID, name and domain, the two spellings share the two,
//     and the second is only for sources whose credentials got a token of the user: a
//     renewal, or a Secret that worked before, resets the count; a stranger's guess is
//     held instead.
//   - A name's second refusal counts against the linked user only when it is asked in
//     that user's domain, as the first was; in another domain it is another user's.
//   - A request under way counts as refused until its answer is recorded, and no other
//     request of the spelling is sent meanwhile: so a success resets exactly.
// No rule reaches across spellings that no token linked: a made-up name refused holds
// nothing but itself.

// request is a counted token request, in the record's terms.
type request struct {
	key    string // the spelling's key
	byName bool
	domain string // the domain spelling's hash, for a name
	source string // the source's hash
	turn   string // the namespace's (or identity's) hash
}

// view is the record as read, with what this process learned from tokens.
type view struct {
	entries map[string]entry
	users   map[string]*knownUser
	now     time.Time
}

// knownUser is what a token showed of a user, under the key of its ID.
type knownUser struct {
	name    string   // the key of its name
	domains []string // hashes of its domain by ID and by name
	proven  map[string]bool
}

func (v view) effective(key string) int {
	e := v.entries[key]
	n := e.Refusals
	if e.Pending != 0 {
		n++
	}
	return n
}

func (v view) underWay(key string) bool {
	p := v.entries[key].Pending
	return p != 0 && v.now.Sub(time.Unix(p, 0)) < pendingTimeout
}

// nameOf returns the key of the name linked to the user of ID key u; "" when unknown.
func (v view) nameOf(u string) string {
	if k := v.users[u]; k != nil && k.name != "" {
		return k.name
	}
	if e, ok := v.entries[u]; ok && !e.Name && e.Link != "" {
		return e.Link
	}
	for key, e := range v.entries {
		if e.Name && e.Link == u {
			return key
		}
	}
	return ""
}

// usersNamed returns the ID keys of the users known to be named by name key n.
func (v view) usersNamed(n string) []string {
	var out []string
	add := func(u string) {
		if !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	for u, k := range v.users {
		if k.name == n {
			add(u)
		}
	}
	for key, e := range v.entries {
		if !e.Name && e.Link == n {
			add(key)
		}
	}
	if e := v.entries[n]; e.Link != "" {
		add(e.Link)
	}
	slices.Sort(out)
	return out
}

func (v view) domainsOf(u string) []string {
	var out []string
	if k := v.users[u]; k != nil {
		out = append(out, k.domains...)
	}
	return append(out, v.entries[u].Domains...)
}

func (v view) proven(u, source string) bool {
	if k := v.users[u]; k != nil && k.proven[source] {
		return true
	}
	if slices.Contains(v.entries[u].Proven, source) {
		return true
	}
	n := v.nameOf(u)
	return n != "" && v.entries[n].Link == u && slices.Contains(v.entries[n].Proven, source)
}

// userSum is what the user of ID key u was refused in a row, as far as known.
func (v view) userSum(u string) int {
	s := v.effective(u)
	if n := v.nameOf(u); n != "" {
		s += v.effective(n)
	}
	return s
}

// heldReason says why r may not be sent now ("" when it may), and for a name whose
// second refusal counts against a known user, that user.
func (v view) heldReason(r request) (reason, user string) {
	if v.underWay(r.key) {
		return "a token request of this user is under way (at this or another controller); asking again once it is answered", ""
	}
	const full = "Keystone refused the user lately, and one more refusal could get it locked out"
	const kept = "Keystone refused the user lately, and the one more refusal that is safe is kept for credentials of it that got a token before"
	if !r.byName {
		if v.nameOf(r.key) == "" {
			if v.effective(r.key) > 0 {
				return full, ""
			}
			return "", ""
		}
		switch s := v.userSum(r.key); {
		case s == 0:
			return "", ""
		case s == 1 && v.proven(r.key, r.source):
			return "", ""
		case s == 1:
			return kept, ""
		}
		return full, ""
	}
	switch v.effective(r.key) {
	case 0:
		linked := ""
		for _, u := range v.usersNamed(r.key) {
			if s := v.userSum(u); s >= MaxRefusalsInARow {
				return full, ""
			} else if s == 1 && !v.proven(u, r.source) {
				return kept, ""
			}
			if slices.Contains(v.domainsOf(u), r.domain) {
				linked = u
			}
		}
		return "", linked
	case 1:
		if v.entries[r.key].Domain != r.domain {
			return full, ""
		}
		for _, u := range v.usersNamed(r.key) {
			inDomain := slices.Contains(v.domainsOf(u), r.domain) || v.entries[r.key].Link == u
			if inDomain && v.userSum(u) == 1 && v.proven(u, r.source) {
				return "", u
			}
		}
		return kept, ""
	}
	return full, ""
}

// roomReason says why a spelling without an entry gets none ("" when it may).
func (v view) roomReason(r request) string {
	if _, ok := v.entries[r.key]; ok {
		return ""
	}
	if len(v.entries) >= MaxRecordEntries {
		return fmt.Sprintf("the record of refused token requests holds %d users, its bound for the cluster; asking once one of them gets a token", len(v.entries))
	}
	n := 0
	for _, e := range v.entries {
		if e.Turn == r.turn {
			n++
		}
	}
	if n >= MaxEntriesPerNamespace {
		return fmt.Sprintf("the record of refused token requests holds %d users for these credentials' namespace, its bound per namespace; asking once one of them gets a token", n)
	}
	return ""
}

// admitted returns r's entry recorded as under way, with what this process knows of its
// user, given linked, the user a name's second refusal counts against.
func (v view) admitted(r request, linked string) entry {
	e := v.entries[r.key]
	e.Proven, e.Domains = slices.Clone(e.Proven), slices.Clone(e.Domains) // shared with the parsed record
	if e.Pending != 0 {                                                   // lost with its controller: it counts as refused
		e.Refusals = min(e.Refusals+1, MaxRefusalsInARow)
	}
	e.Pending = v.now.Unix()
	if e.Turn == "" {
		e.Turn = r.turn
	}
	e.Name = r.byName
	if r.byName {
		e.Domain = r.domain
		if linked != "" {
			// The name's refusals are the linked user's: say so, with whose credentials
			// worked, for controllers that never saw its token.
			e.Link = linked
			if k := v.users[linked]; k != nil {
				for _, s := range slices.Sorted(maps.Keys(k.proven)) {
					if !slices.Contains(e.Proven, s) && len(e.Proven) < maxProven {
						e.Proven = append(e.Proven, s)
					}
				}
			}
		}
	} else {
		v.addKnowledge(r.key, &e)
	}
	return e
}

// addKnowledge writes into the entry of ID key u what this process learned of its user,
// so that other controllers count its spellings together too.
func (v view) addKnowledge(u string, e *entry) {
	k := v.users[u]
	if k == nil {
		return
	}
	if k.name != "" {
		e.Link = k.name
	}
	for _, d := range k.domains {
		if !slices.Contains(e.Domains, d) && len(e.Domains) < 2 {
			e.Domains = append(e.Domains, d)
		}
	}
	for _, s := range slices.Sorted(maps.Keys(k.proven)) {
		if !slices.Contains(e.Proven, s) && len(e.Proven) < maxProven {
			e.Proven = append(e.Proven, s)
		}
	}
}

// heldCount is how many users' spellings have refusals in a row or a request under way.
func (v view) heldCount() int {
	n := 0
	for key := range v.entries {
		if v.effective(key) > 0 {
			n++
		}
	}
	return n
}
