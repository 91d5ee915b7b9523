package lockout

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/samplecrd/network-controller/pkg/credentials/tokenrequests"
)

func sharedGates(n int, record Record) []*Gate {
	var gates []*Gate
	for range n {
		g := NewGate(1e6, 1e6, nil, nil)
		g.KeepRecordIn(record, "the test's record", func(error) {})
		gates = append(gates, g)
	}
	return gates
}

// Finding 1: a made-up name refused holds back nothing but itself, also for a gate that
// starts afresh on the same record (a restart, a rollout, a shard takeover).
func TestAMadeUpNameHoldsNoOtherUser(t *testing.T) {
	k := newSimKeystone()
	record := newMemoryRecord()
	g := sharedGates(1, record)[0]
	nobody := simCreds{namespace: "hostile", secret: "s", userName: "zz-nobody", domainName: "Default", password: "x"}
	for i, want := range []string{tokenrequests.Rejected, "held", "held"} {
		nobody.secret = fmt.Sprintf("s-%d", i)
		if got := try(t, g, k, nobody); got != want {
			t.Fatalf("made-up name, try %d: %s, want %s", i, got, want)
		}
	}
	valid := []simCreds{
		{namespace: "team-a", secret: "by-id", userID: "5f3a0c1e9b7d4e2f8a6c1d3e5f7a9b0c", password: "a-secret"},
		{namespace: "team-b", secret: "by-name", userName: "bob", domainName: "Default", password: "b-secret"},
		{namespace: "team-c", secret: "by-id", userID: "1111AAAA2222BBBB3333CCCC4444DDDD", password: "c-secret"},
	}
	for _, c := range valid {
		if got := try(t, g, k, c); got != tokenrequests.OK {
			t.Errorf("%s/%s after a made-up name was refused: %s, want ok", c.namespace, c.secret, got)
		}
	}
	restarted := sharedGates(1, record)[0]
	for _, c := range valid {
		c.namespace += "-after-restart"
		if got := try(t, restarted, k, c); got != tokenrequests.OK {
			t.Errorf("%s/%s after a restart: %s, want ok", c.namespace, c.secret, got)
		}
	}
	if got := try(t, restarted, k, nobody); got != "held" {
		t.Errorf("the made-up name after a restart: %s, want held", got)
	}
}

// Finding 2: spellings Keystone's database may take for one user are refused before any
// request; the ones admitted count as one user exactly when equal in ASCII lower case.
func TestSpellingsKeystoneMayTakeForAnotherUserAreRefused(t *testing.T) {
	const id = "5f3a0c1e9b7d4e2f8a6c1d3e5f7a9b0c"
	for _, bad := range []struct{ userID, userName, domainName string }{
		{userID: "5f3á" + id[4:]}, {userID: "5f3à" + id[4:]}, {userID: "5f3â" + id[4:]},
		{userID: id + " "}, {userID: " " + id}, {userID: "5F3A0C1E9B7D4E2F8A6C1D3E5F7A9B0Ｃ"},
		{userName: "aliße", domainName: "Default"}, {userName: "älice", domainName: "Default"},
		{userName: "alice ", domainName: "Default"}, {userName: " alice", domainName: "Default"},
		{userName: "ali\x01ce", domainName: "Default"}, {userName: "alice", domainName: "Défault"},
	} {
		if user, _, err := CanonicalUser(bad.userID, bad.userName, "", bad.domainName); err == nil {
			t.Errorf("%+v admitted as %q, want refused", bad, user)
		}
	}
	upper, _, _ := CanonicalUser(strings.ToUpper(id), "", "", "")
	lower, _, _ := CanonicalUser(id, "", "", "")
	if upper != lower {
		t.Errorf("an ID in capitals counts as %q, in lower case as %q: two users", upper, lower)
	}
	a, da, _ := CanonicalUser("", "ALICE", "", "DEFAULT")
	b, db, _ := CanonicalUser("", "alice", "", "Default")
	if a != b || da != db {
		t.Errorf("ALICE@DEFAULT counts as %q@%q, alice@Default as %q@%q", a, da, b, db)
	}
	// Wrong passwords by the ID in both cases reach Keystone once.
	k := newSimKeystone()
	g := sharedGates(1, newMemoryRecord())[0]
	try(t, g, k, simCreds{namespace: "x", secret: "lower", userID: id, password: "guess"})
	try(t, g, k, simCreds{namespace: "y", secret: "upper", userID: strings.ToUpper(id), password: "guess"})
	if k.users[0].failures != 1 {
		t.Errorf("alice was refused %d times, want 1", k.users[0].failures)
	}
}

// racingRecord is a record another writer writes to between some reads and writes.
type racingRecord struct {
	*memoryRecord
	mu sync.Mutex
	n  int
}

func (r *racingRecord) Write(ctx context.Context, version string, changes map[string]*string) error {
	r.mu.Lock()
	r.n++
	race := r.n%3 == 0
	r.mu.Unlock()
	if race { // another controller's write lands first: this one must be decided again
		data, v, _ := r.memoryRecord.Read(ctx)
		_ = r.memoryRecord.Write(ctx, v, map[string]*string{"x-unrelated-" + fmt.Sprint(len(data)): nil})
	}
	return r.memoryRecord.Write(ctx, version, changes)
}

// Finding 3: three controllers sharing the record, their writes raced on purpose, never
// send a user a third refusal in a row, however many Secrets guess at once.
func TestRacedControllersNeverSendAThirdRefusal(t *testing.T) {
	k := newSimKeystone()
	gates := sharedGates(3, &racingRecord{memoryRecord: newMemoryRecord()})
	alice := k.users[0]
	guesses := []simCreds{
		{userID: alice.id}, {userID: strings.ToUpper(alice.id)}, {userName: "alice", domainName: "Default"},
		{userName: "Alice", domainID: "default"}, {userName: "ALICE", domainName: "DEFAULT"},
	}
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := guesses[i%len(guesses)]
			c.namespace, c.secret, c.password = fmt.Sprintf("ns-%d", i%7), fmt.Sprintf("s-%d", i), "guess"
			try(t, gates[i%3], k, c)
		}()
	}
	wg.Wait()
	t.Logf("60 guesses at alice by 5 spellings through 3 controllers: Keystone refused her %d times in a row", alice.failures)
	if alice.failures > MaxRefusalsInARow || alice.locked {
		t.Fatalf("alice refused %d times in a row (locked %v), want at most %d", alice.failures, alice.locked, MaxRefusalsInARow)
	}
	if outcome, _ := k.login(simCreds{userName: "alice", domainName: "Default", password: "a-secret"}); outcome != tokenrequests.OK {
		t.Fatal("alice no longer logs in")
	}
}

// Finding 4: the record is bounded for the cluster as a whole, whichever controller
// writes; a namespace fills only its own share; at the bound a user without an entry is
// held, and the record stays far below a ConfigMap's 1 MiB.
func TestTheRecordIsBoundedForTheCluster(t *testing.T) {
	k := newSimKeystone()
	record := newMemoryRecord()
	gates := sharedGates(3, record)
	held := 0
	for i := range MaxEntriesPerNamespace + 5 {
		c := simCreds{namespace: "flood", secret: fmt.Sprint(i), userName: fmt.Sprintf("made-up-%d", i), domainName: "Default", password: "x"}
		if try(t, gates[i%3], k, c) == "held" {
			held++
		}
	}
	if held != 5 {
		t.Errorf("one namespace's %d made-up users: %d held, want the 5 past its bound of %d", MaxEntriesPerNamespace+5, held, MaxEntriesPerNamespace)
	}
	if got := try(t, gates[0], k, simCreds{namespace: "calm", secret: "s", userName: "bob", domainName: "Default", password: "b-secret"}); got != tokenrequests.OK {
		t.Errorf("another namespace's valid Secret beside the flood: %s, want ok", got)
	}
	// Other namespaces' entries fill the record to its bound (written as a controller
	// would; the bound counts them whichever controller wrote them).
	data, version, _ := record.Read(context.Background())
	fill := map[string]*string{}
	for i := len(data); i < MaxRecordEntries; i++ {
		e := entry{Refusals: 1, Name: true, Turn: hashed(fmt.Sprintf("ns-%d", i/MaxEntriesPerNamespace), hashLength)}
		fill[spellingKey(gateKeystone, fmt.Sprintf("name:filler-%d", i))] = e.encode()
	}
	if err := record.Write(context.Background(), version, fill); err != nil {
		t.Fatal(err)
	}
	data, _, _ = record.Read(context.Background())
	size := 0
	for key, value := range data {
		size += len(key) + len(value)
	}
	c := simCreds{namespace: "late", secret: "s", userName: "carol", domainName: "Default", password: "c-secret"}
	who := c.requester(t)
	_, err := gates[1].Admit(context.Background(), who)
	t.Logf("the record at its bound: %d entries, %d bytes; a new user: %v", len(data), size, err)
	if len(data) != MaxRecordEntries {
		t.Errorf("the record holds %d entries, want its bound %d", len(data), MaxRecordEntries)
	}
	if err == nil || !strings.Contains(err.Error(), "its bound for the cluster") {
		t.Errorf("a new user at the bound: %v, want held at the cluster's bound", err)
	}
	// The largest entry the controller writes, times the bound, is far below 1 MiB.
	full := entry{Refusals: 2, Pending: time.Now().Unix(), Name: true, Turn: strings.Repeat("a", hashLength), Domain: strings.Repeat("b", hashLength),
		Link: strings.Repeat("c", keyLength), Domains: []string{strings.Repeat("d", hashLength), strings.Repeat("e", hashLength)},
		Proven: []string{strings.Repeat("f", hashLength), strings.Repeat("1", hashLength), strings.Repeat("2", hashLength), strings.Repeat("3", hashLength)}}
	b, _ := json.Marshal(full)
	if worst := MaxRecordEntries * (keyLength + len(b) + 8); worst > 320<<10 {
		t.Errorf("a full record of the largest entries is %d bytes, want under 320 KiB", worst)
	}
}

// The second refusal a known user may get is kept for credentials that got a token of it:
// a stranger's guess is held, the owner's renewal goes and resets the count.
func TestTheLastRefusalIsKeptForCredentialsThatWorked(t *testing.T) {
	k := newSimKeystone()
	g := sharedGates(1, newMemoryRecord())[0]
	owner := simCreds{namespace: "team", secret: "openstack", userName: "alice", domainName: "Default", password: "a-secret"}
	if got := try(t, g, k, owner); got != tokenrequests.OK {
		t.Fatalf("the owner's first login: %s", got)
	}
	guessByID := simCreds{namespace: "hostile", secret: "one", userID: k.users[0].id, password: "guess"}
	guessByName := simCreds{namespace: "hostile", secret: "two", userName: "alice", domainName: "Default", password: "guess"}
	if got := try(t, g, k, guessByID); got != tokenrequests.Rejected {
		t.Fatalf("the first guess: %s, want rejected", got)
	}
	if got := try(t, g, k, guessByName); got != "held" {
		t.Fatalf("the second guess, by name: %s, want held", got)
	}
	if got := try(t, g, k, owner); got != tokenrequests.OK {
		t.Fatalf("the owner's renewal: %s, want ok", got)
	}
	if got := try(t, g, k, guessByName); got != tokenrequests.Rejected {
		t.Fatalf("a guess after the renewal reset the count: %s, want rejected", got)
	}
}

// A name refused in one domain is another user than its namesake in another domain.
func TestANamesakeInAnotherDomainIsAnotherUser(t *testing.T) {
	k := newSimKeystone()
	g := sharedGates(1, newMemoryRecord())[0]
	try(t, g, k, simCreds{namespace: "a", secret: "s", userName: "bob", domainName: "Default", password: "b-secret"})
	try(t, g, k, simCreds{namespace: "b", secret: "s", userName: "bob", domainName: "Other", password: "b2-secret"})
	guess := simCreds{namespace: "hostile", secret: "s", userName: "bob", domainName: "Other", password: "guess"}
	try(t, g, k, guess)
	try(t, g, k, simCreds{namespace: "hostile", secret: "t", userID: k.users[2].id, password: "guess"})
	try(t, g, k, guess)
	for _, u := range k.users {
		if u.failures > MaxRefusalsInARow {
			t.Errorf("%s@%s refused %d times in a row", u.name, u.domainName, u.failures)
		}
	}
}

// A request recorded as under way by a controller that died counts as refused once
// its time is up, and holds its spelling meanwhile.
func TestARequestLostWithItsControllerCountsAsRefused(t *testing.T) {
	clock := clocktesting.NewFakeClock(time.Unix(1e9, 0))
	record := newMemoryRecord()
	dead := newGate(1e6, 1e6, nil, nil, clock)
	dead.KeepRecordIn(record, "r", func(error) {})
	c := simCreds{namespace: "x", secret: "s", userName: "zz-nobody", domainName: "Default", password: "x"}
	if _, err := dead.Admit(context.Background(), c.requester(t)); err != nil { // never answered
		t.Fatal(err)
	}
	next := newGate(1e6, 1e6, nil, nil, clock)
	next.KeepRecordIn(record, "r", func(error) {})
	c.secret = "t"
	if _, err := next.Admit(context.Background(), c.requester(t)); err == nil || !strings.Contains(err.Error(), "under way") {
		t.Fatalf("while the lost request may still be answered: %v, want held as under way", err)
	}
	clock.Step(pendingTimeout + time.Second)
	if _, err := next.Admit(context.Background(), c.requester(t)); err == nil || !strings.Contains(err.Error(), "refused the user lately") {
		t.Fatalf("after the lost request's time: %v, want held as refused", err)
	}
}

// The guarantee, on random traffic: Secrets of many namespaces guess and use every user's
// spellings through three controllers sharing a raced record; no user is ever refused
// more than MaxRefusalsInARow times in a row, and right credentials of a user not held by
// its own refusals get a token.
func TestNoTrafficLocksAUserOut(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		rng := rand.New(rand.NewPCG(seed, seed))
		k := newSimKeystone()
		gates := sharedGates(3, &racingRecord{memoryRecord: newMemoryRecord()})
		for i := range 250 {
			u := k.users[rng.IntN(len(k.users))]
			c := simCreds{namespace: fmt.Sprintf("ns-%d", rng.IntN(5)), secret: fmt.Sprintf("s-%d", rng.IntN(6)), password: "guess"}
			if rng.IntN(3) == 0 {
				c.password = u.password
			}
			switch rng.IntN(5) {
			case 0:
				c.userID = u.id
			case 1:
				c.userID = strings.ToUpper(u.id)
			case 2:
				c.userName, c.domainID = strings.ToUpper(u.name), u.domainID
			case 3:
				c.userName, c.domainName = u.name, u.domainName
			default:
				c.userName, c.domainName = fmt.Sprintf("made-up-%d", rng.IntN(4)), "Default"
			}
			try(t, gates[i%3], k, c)
			if k.maxFailures > MaxRefusalsInARow {
				t.Fatalf("seed %d, request %d (%+v): a user refused %d times in a row", seed, i, c, k.maxFailures)
			}
		}
	}
}

// After a restart the record alone says whose credentials may spend a known user's last
// refusal: the owner's Secret is sent, a stranger's is held.
func TestTheLastRefusalIsKeptForTheOwnerAfterARestart(t *testing.T) {
	k := newSimKeystone()
	record := newMemoryRecord()
	g := sharedGates(1, record)[0]
	owner := simCreds{namespace: "team", secret: "openstack", userName: "alice", domainName: "Default", password: "a-secret"}
	try(t, g, k, owner)
	guess := simCreds{namespace: "hostile", secret: "one", userName: "alice", domainName: "Default", password: "guess"}
	if got := try(t, g, k, guess); got != tokenrequests.Rejected {
		t.Fatalf("the guess: %s, want rejected", got)
	}
	restarted := sharedGates(1, record)[0]
	guess.secret = "two"
	if got := try(t, restarted, k, guess); got != "held" {
		t.Errorf("a guess after the restart: %s, want held", got)
	}
	if got := try(t, restarted, k, owner); got != tokenrequests.OK {
		t.Errorf("the owner after the restart: %s, want ok", got)
	}
}

// An entry the version before wrote keeps its count after an upgrade, and an entry that
// counts nothing is removed by the next write.
func TestAnUpgradeForgetsNoRefusal(t *testing.T) {
	k := newSimKeystone()
	record := newMemoryRecord()
	old := `{"keys":["` + spellingKey(gateKeystone, "name:alice") + `"],"refusals":2,"turns":["team"],"keystone":"0123456789abcdef"}`
	quiet := `{"keys":["x"],"refusals":0}`
	quietKey := strings.Repeat("0", keyLength)
	_ = record.Write(context.Background(), "", map[string]*string{spellingKey(gateKeystone, "name:alice"): &old, quietKey: &quiet})
	g := sharedGates(1, record)[0]
	if got := try(t, g, k, simCreds{namespace: "x", secret: "s", userName: "alice", domainName: "Default", password: "guess"}); got != "held" {
		t.Errorf("a user with 2 refusals recorded by the version before: %s, want held", got)
	}
	try(t, g, k, simCreds{namespace: "x", secret: "t", userName: "bob", domainName: "Default", password: "b-secret"})
	if data, _, _ := record.Read(context.Background()); data[quietKey] != "" {
		t.Errorf("an entry counting nothing is still there: %v", data)
	}
}

// slowRecord takes a while to write, as an apiserver under load does, and counts writes.
type slowRecord struct {
	*memoryRecord
	mu     sync.Mutex
	writes int
}

func (r *slowRecord) Write(ctx context.Context, version string, changes map[string]*string) error {
	time.Sleep(20 * time.Millisecond)
	r.mu.Lock()
	r.writes++
	r.mu.Unlock()
	return r.memoryRecord.Write(ctx, version, changes)
}

// A flood of token requests does not cost the record a read and a write per request:
// the changes waiting meanwhile are decided together and written in one write, so a
// quiet namespace's request waits behind a batch, not behind each request of the flood.
func TestAFloodIsRecordedInBatches(t *testing.T) {
	k := newSimKeystone()
	record := &slowRecord{memoryRecord: newMemoryRecord()}
	g := sharedGates(1, record)[0]
	const flood = 40
	var wg sync.WaitGroup
	for i := range flood {
		wg.Add(1)
		go func() {
			defer wg.Done()
			try(t, g, k, simCreds{namespace: "flood", secret: fmt.Sprint(i), userName: fmt.Sprintf("made-up-%d", i), domainName: "Default", password: "x"})
		}()
	}
	wg.Wait()
	data, _, _ := record.Read(context.Background())
	t.Logf("%d refused requests of made-up users: %d entries recorded in %d writes", flood, len(data), record.writes)
	if len(data) != flood {
		t.Errorf("%d entries, want %d", len(data), flood)
	}
	if record.writes >= flood { // 2 changes per request: recorded before, answered after
		t.Errorf("%d writes for %d requests' %d changes, want them batched", record.writes, flood, 2*flood)
	}
}
