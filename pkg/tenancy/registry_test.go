package tenancy

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// fakeSecrets is a SecretSource whose Secrets the test sets; it counts the data reads.
type fakeSecrets struct {
	mu      sync.Mutex
	secrets map[string]fakeSecret
	reads   int
}

type fakeSecret struct {
	version string
	data    map[string][]byte
}

func (f *fakeSecrets) put(namespace, name, version string, data map[string][]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.secrets == nil {
		f.secrets = map[string]fakeSecret{}
	}
	f.secrets[namespace+"/"+name] = fakeSecret{version, data}
}

func (f *fakeSecrets) Version(_ context.Context, namespace, name string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.secrets[namespace+"/"+name]
	if !ok {
		return "", secretNotFound(namespace+"/"+name, namespace)
	}
	return s.version, nil
}

func (f *fakeSecrets) Data(_ context.Context, namespace, name string) (map[string][]byte, string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	s, ok := f.secrets[namespace+"/"+name]
	if !ok {
		return nil, "", secretNotFound(namespace+"/"+name, namespace)
	}
	return s.data, s.version, nil
}

// fakeKeystone authenticates users of cloudsYAMLFor: each user's project is "project-" +
// user, a password other than the user's current one is refused, and while down it does
// not answer. Each project has one fake Neutron.
type fakeKeystone struct {
	mu        sync.Mutex
	passwords map[string]string
	down      bool
	attempts  []string
	neutrons  map[string]*neutronfake.Driver
}

func newFakeKeystone() *fakeKeystone {
	return &fakeKeystone{passwords: map[string]string{}, neutrons: map[string]*neutronfake.Driver{}}
}

func (k *fakeKeystone) connect(_ context.Context, creds neutronclient.Credentials) (neutron.Driver, neutron.Place, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	user := creds.Auth.Username
	k.attempts = append(k.attempts, user)
	if k.down {
		return nil, neutron.Place{}, &neutron.Error{Service: "keystone", Kind: neutron.KindUnavailable, Message: "connection refused"}
	}
	if k.passwords[user] != creds.Auth.Password {
		return nil, neutron.Place{}, &neutron.Error{Service: "keystone", Kind: neutron.KindRejected, Code: 401, Message: "401 The request you have made requires authentication."}
	}
	project := "project-" + user
	if k.neutrons[project] == nil {
		k.neutrons[project] = neutronfake.New()
	}
	return k.neutrons[project], placeOf(project), nil
}

// placeOf is the Place of project in the fake Keystone's catalog.
func placeOf(project string) neutron.Place {
	return neutron.Place{Identity: testAuthURL, Region: "RegionOne", Endpoint: "http://neutron.example.com:9696/", ProjectID: project}
}

func (k *fakeKeystone) attemptsOf(user string) int {
	k.mu.Lock()
	defer k.mu.Unlock()
	n := 0
	for _, a := range k.attempts {
		if a == user {
			n++
		}
	}
	return n
}

func cloudsYAMLFor(user, password string) map[string][]byte {
	return map[string][]byte{KeyCloudsYAML: []byte(fmt.Sprintf(
		"clouds:\n  c:\n    auth:\n      auth_url: %s\n      username: %s\n      password: %s\n      user_domain_name: Default\n      project_name: p\n      project_domain_name: Default\n", testAuthURL, user, password))}
}

type registryFixture struct {
	t        *testing.T
	ctx      context.Context
	secrets  *fakeSecrets
	keystone *fakeKeystone
	registry *Registry
	clock    time.Time
}

func newRegistryFixture(t *testing.T, own *Own) *registryFixture {
	f := &registryFixture{t: t, ctx: context.Background(), secrets: &fakeSecrets{}, keystone: newFakeKeystone(), clock: time.Unix(1e9, 0)}
	f.registry = NewRegistry(Config{ClusterID: "cluster", Allowed: allowedForTest(t), Own: own, UnavailableBackoff: 5 * time.Second},
		f.secrets, f.keystone.connect)
	f.registry.now = func() time.Time { return f.clock }
	return f
}

func ref(secret string) *samplecrdv1.CloudCredentialsRef {
	return &samplecrdv1.CloudCredentialsRef{SecretName: secret, CloudName: "c"}
}

func key(namespace, name string) cache.ObjectName {
	return cache.ObjectName{Namespace: namespace, Name: name}
}

func (f *registryFixture) resolve(namespace, name, secret string) (Tenant, error) {
	f.t.Helper()
	var r *samplecrdv1.CloudCredentialsRef
	if secret != "" {
		r = ref(secret)
	}
	return f.registry.Resolve(f.ctx, key(namespace, name), r)
}

func wantReason(t *testing.T, err error, reason string) *Error {
	t.Helper()
	e, ok := AsError(err)
	if !ok || e.Reason != reason {
		t.Fatalf("err = %v, want reason %s", err, reason)
	}
	return e
}

func TestNetworksOfOneSecretShareOneClientAndStore(t *testing.T) {
	f := newRegistryFixture(t, nil)
	f.keystone.passwords["alice"] = "pw"
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "pw"))

	var stores []*neutron.Store
	for _, name := range []string{"n1", "n2", "n3"} {
		tenant, err := f.resolve("team-a", name, "os")
		if err != nil {
			t.Fatalf("Resolve %s: %v", name, err)
		}
		if tenant.Place.ProjectID != "project-alice" {
			t.Errorf("project %q, want project-alice", tenant.Place.ProjectID)
		}
		stores = append(stores, tenant.Store)
	}
	if n := f.keystone.attemptsOf("alice"); n != 1 {
		t.Errorf("%d authentications for three Networks of one Secret, want 1", n)
	}
	if f.secrets.reads != 1 {
		t.Errorf("%d reads of the Secret's data, want 1", f.secrets.reads)
	}
	if got, want := f.keystone.neutrons["project-alice"].Calls(), []string{"list networks", "list subnets"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls %q, want the store filled once: %q", got, want)
	}
	if stores[0].Len() != stores[2].Len() {
		t.Error("stores of one project differ")
	}
}

func TestEachSecretsProjectHasItsOwnStore(t *testing.T) {
	f := newRegistryFixture(t, nil)
	f.keystone.passwords["alice"], f.keystone.passwords["bob"] = "a", "b"
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "a"))
	f.secrets.put("team-b", "os", "1", cloudsYAMLFor("bob", "b"))

	a, err := f.resolve("team-a", "n", "os")
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.resolve("team-b", "n", "os")
	if err != nil {
		t.Fatal(err)
	}
	if a.Place.ProjectID == b.Place.ProjectID {
		t.Fatalf("both tenants in project %s", a.Place.ProjectID)
	}
	if _, err := a.Store.CreateNetwork(f.ctx, neutron.Owner{ClusterID: "cluster", Namespace: "team-a", Name: "n", UID: "u1"}, neutron.DesiredNetwork{}); err != nil {
		t.Fatal(err)
	}
	if len(f.keystone.neutrons["project-bob"].Networks()) != 0 || len(f.keystone.neutrons["project-alice"].Networks()) != 1 {
		t.Error("team-a's network was not created in team-a's project only")
	}
	var ids []string
	for _, p := range f.registry.Projects() {
		ids = append(ids, p.Place.ProjectID)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"project-alice", "project-bob"}) {
		t.Errorf("projects %q", ids)
	}
}

// TestRejectedCredentialsAreTriedOncePerContent: Keystone locks users out after failed
// attempts, so a refused password is not sent again until the Secret changes.
func TestRejectedCredentialsAreTriedOncePerContent(t *testing.T) {
	f := newRegistryFixture(t, nil)
	f.keystone.passwords["alice"] = "right"
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "wrong"))

	for _, name := range []string{"n1", "n2", "n3", "n1"} {
		_, err := f.resolve("team-a", name, "os")
		e := wantReason(t, err, samplecrdv1.ReasonPasswordRejected)
		if !strings.Contains(e.Message, "Secret team-a/os") || strings.Contains(e.Message, "wrong") {
			t.Errorf("message %q should name the Secret and not the password", e.Message)
		}
	}
	if n := f.keystone.attemptsOf("alice"); n != 1 {
		t.Fatalf("%d authentication attempts, want 1", n)
	}
	// A new version with the same content is still refused without asking Keystone.
	f.secrets.put("team-a", "os", "2", cloudsYAMLFor("alice", "wrong"))
	_, err := f.resolve("team-a", "n1", "os")
	wantReason(t, err, samplecrdv1.ReasonPasswordRejected)
	if n := f.keystone.attemptsOf("alice"); n != 1 {
		t.Fatalf("%d authentication attempts after an unchanged update, want 1", n)
	}

	f.secrets.put("team-a", "os", "3", cloudsYAMLFor("alice", "right"))
	if _, err := f.resolve("team-a", "n1", "os"); err != nil {
		t.Fatalf("after fixing the Secret: %v", err)
	}
}

func TestUnavailableKeystoneIsRetriedAfterBackoff(t *testing.T) {
	f := newRegistryFixture(t, nil)
	f.keystone.passwords["alice"] = "pw"
	f.keystone.down = true
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "pw"))

	for range 3 {
		_, err := f.resolve("team-a", "n", "os")
		if e := wantReason(t, err, samplecrdv1.ReasonKeystoneUnavailable); e.Terminal() {
			t.Fatal("an unavailable Keystone must be retried")
		}
	}
	if n := f.keystone.attemptsOf("alice"); n != 1 {
		t.Fatalf("%d attempts within the backoff, want 1", n)
	}
	f.keystone.down = false
	f.clock = f.clock.Add(6 * time.Second)
	if _, err := f.resolve("team-a", "n", "os"); err != nil {
		t.Fatalf("after Keystone came back: %v", err)
	}
}

func TestRotatedSecretGetsANewClientAndTheOldOneIsDropped(t *testing.T) {
	f := newRegistryFixture(t, nil)
	f.keystone.passwords["alice"] = "old"
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "old"))
	if _, err := f.resolve("team-a", "n", "os"); err != nil {
		t.Fatal(err)
	}
	f.keystone.passwords["alice"] = "new"
	f.secrets.put("team-a", "os", "2", cloudsYAMLFor("alice", "new"))
	if _, err := f.resolve("team-a", "n", "os"); err != nil {
		t.Fatalf("after rotation: %v", err)
	}
	if n := f.keystone.attemptsOf("alice"); n != 2 {
		t.Errorf("%d authentications, want 2 (one per credential)", n)
	}
	if n := len(f.registry.clients); n != 1 {
		t.Errorf("%d clients kept, want 1: the old credential's client has no user", n)
	}
	f.registry.Forget(key("team-a", "n"))
	if n := len(f.registry.clients); n != 0 {
		t.Errorf("%d clients kept after the last Network went, want 0", n)
	}
	if n := len(f.registry.Projects()); n != 0 {
		t.Errorf("%d projects kept that no credentials reach, want 0", n)
	}
}

func TestMissingSecretAndMissingReference(t *testing.T) {
	f := newRegistryFixture(t, nil)
	_, err := f.resolve("team-a", "n", "os")
	e := wantReason(t, err, samplecrdv1.ReasonCredentialsSecretNotFound)
	if !strings.Contains(e.Message, "Secret team-a/os does not exist") {
		t.Errorf("message %q", e.Message)
	}
	// Another namespace's Secret of the same name is never used.
	f.secrets.put("team-b", "os", "1", cloudsYAMLFor("bob", "b"))
	_, err = f.resolve("team-a", "n", "os")
	wantReason(t, err, samplecrdv1.ReasonCredentialsSecretNotFound)

	_, err = f.resolve("team-a", "n", "")
	wantReason(t, err, samplecrdv1.ReasonCredentialsRefRequired)
	if len(f.keystone.attempts) != 0 {
		t.Errorf("Keystone asked %d times", len(f.keystone.attempts))
	}
}

func TestOwnCloudServesNetworksWithoutReference(t *testing.T) {
	driver := neutronfake.New()
	f := newRegistryFixture(t, &Own{Driver: driver, Place: placeOf("project-own")})
	tenant, err := f.resolve("default", "n", "")
	if err != nil {
		t.Fatal(err)
	}
	if tenant.Place.ProjectID != "project-own" {
		t.Errorf("project %q", tenant.Place.ProjectID)
	}
	// A tenant whose credentials lead to the same project shares its store.
	f.keystone.passwords["own"] = "pw"
	f.keystone.neutrons["project-own"] = driver
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("own", "pw"))
	if _, err := f.resolve("team-a", "n", "os"); err != nil {
		t.Fatal(err)
	}
	if got := driver.Calls(); !slices.Equal(got, []string{"list networks", "list subnets"}) {
		t.Errorf("Neutron calls %q, want one fill for the shared project", got)
	}
}

// refusingDriver is a project's Neutron reached with credentials Keystone stopped
// accepting after the client authenticated.
type refusingDriver struct {
	*neutronfake.Driver
	refused error
}

func (d *refusingDriver) Refused() error { return d.refused }

func TestCredentialsRefusedOnRenewalAreNotTriedAgain(t *testing.T) {
	f := newRegistryFixture(t, nil)
	driver := &refusingDriver{Driver: neutronfake.New()}
	connects := 0
	f.registry.connect = func(context.Context, neutronclient.Credentials) (neutron.Driver, neutron.Place, error) {
		connects++
		return driver, placeOf("project-a"), nil
	}
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "pw"))
	if _, err := f.resolve("team-a", "n", "os"); err != nil {
		t.Fatal(err)
	}
	driver.refused = &neutron.Error{Service: "keystone", Op: "list networks", Kind: neutron.KindRejected, Message: "Keystone refused to issue a new token: 401"}
	for range 2 {
		_, err := f.resolve("team-a", "n", "os")
		wantReason(t, err, samplecrdv1.ReasonPasswordRejected)
	}
	if connects != 1 {
		t.Errorf("%d authentications, want 1: refused credentials wait for the Secret to change", connects)
	}
	f.secrets.put("team-a", "os", "2", cloudsYAMLFor("alice", "new"))
	driver.refused = nil
	if _, err := f.resolve("team-a", "n", "os"); err != nil || connects != 2 {
		t.Errorf("after the Secret changed: err %v, %d authentications, want nil and 2", err, connects)
	}
}

// TestResyncKeepsAProjectWhoseClientIsBusy: a Network holding its client (authenticating
// or checking it) while the resync lists the projects must not make the resync drop the
// project, which would cost a refill of its store.
func TestResyncKeepsAProjectWhoseClientIsBusy(t *testing.T) {
	f := newRegistryFixture(t, nil)
	f.keystone.passwords["alice"] = "pw"
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "pw"))
	if _, err := f.resolve("team-a", "n", "os"); err != nil {
		t.Fatal(err)
	}
	f.registry.mu.Lock()
	var held *client
	for _, c := range f.registry.clients {
		held = c
	}
	f.registry.mu.Unlock()
	held.mu.Lock()
	projects := f.registry.Projects()
	held.mu.Unlock()
	if len(projects) != 1 || projects[0].Place.ProjectID != "project-alice" {
		t.Fatalf("projects while the client is busy: %v, want project-alice", projects)
	}
	if _, err := f.resolve("team-a", "n", "os"); err != nil {
		t.Fatal(err)
	}
	if got := f.keystone.neutrons["project-alice"].Calls(); len(got) != 2 {
		t.Errorf("Neutron calls %q, want the store filled once (2 lists)", got)
	}
}

// TestPlacesNotProjectIDsShareStores: credentials whose token claims the controller's
// own project, but from another Keystone or in another region, reach another Neutron:
// they get a store of their own, filled through their own driver, and nothing the other
// store holds is visible through them.
func TestPlacesNotProjectIDsShareStores(t *testing.T) {
	own := neutronfake.New()
	own.PutNetwork(neutron.Network{ID: "own-net", Name: "k8s_ns_n_u1", Description: neutron.ClusterDescription("cluster")})
	f := newRegistryFixture(t, &Own{Driver: own, Place: placeOf("project-own")})
	if _, err := f.resolve("default", "n", ""); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		place neutron.Place
	}{
		{"another Keystone", neutron.Place{Identity: "https://elsewhere.example.com/v3", Region: "RegionOne", Endpoint: "http://neutron.example.com:9696/", ProjectID: "project-own"}},
		{"another region", neutron.Place{Identity: testAuthURL, Region: "RegionTwo", Endpoint: "http://neutron-two.example.com:9696/", ProjectID: "project-own"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			claimer := neutronfake.New()
			f.registry.connect = func(context.Context, neutronclient.Credentials) (neutron.Driver, neutron.Place, error) {
				return claimer, tc.place, nil
			}
			f.secrets.put("team-a", tc.name, "1", cloudsYAMLFor("mallory", tc.name))
			tenant, err := f.resolve("team-a", "claim-"+tc.name, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if tenant.Place != tc.place {
				t.Errorf("tenant's place %v, want %v", tenant.Place, tc.place)
			}
			if n := tenant.Store.Len(); n != 0 {
				t.Errorf("the claimed project's store holds %d networks of the controller's own place", n)
			}
			if got := claimer.Calls(); !slices.Equal(got, []string{"list networks", "list subnets"}) {
				t.Errorf("calls through the claiming credentials %q, want a fill of their own store", got)
			}
			if calls := own.Calls(); slices.Contains(calls, "delete network") {
				t.Errorf("the own cloud was asked to delete: %q", calls)
			}
		})
	}
	if n := len(f.registry.Projects()); n != 3 {
		t.Errorf("%d places, want 3: the own one and one per claiming credential", n)
	}
}

// A Secret is parsed once per version, however many Networks and cloud names use it, and
// a Network naming a cloud the file lacks costs no read of its own.
func TestASecretIsParsedOncePerVersion(t *testing.T) {
	f := newRegistryFixture(t, nil)
	f.keystone.passwords["alice"] = "pw"
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "pw"))
	for i := range 50 {
		r := &samplecrdv1.CloudCredentialsRef{SecretName: "os", CloudName: fmt.Sprintf("missing-%d", i)}
		_, err := f.registry.Resolve(f.ctx, key("team-a", fmt.Sprintf("n%d", i)), r)
		wantReason(t, err, samplecrdv1.ReasonCloudNotFound)
	}
	if _, err := f.resolve("team-a", "real", "os"); err != nil {
		t.Fatal(err)
	}
	if f.secrets.reads != 1 {
		t.Errorf("%d reads of the Secret, want 1", f.secrets.reads)
	}
	if n, _ := f.registry.parsed.len(); n != 1 {
		t.Errorf("%d parsed Secrets kept, want 1", n)
	}
	f.secrets.put("team-a", "os", "2", cloudsYAMLFor("alice", "pw"))
	if _, err := f.resolve("team-a", "real", "os"); err != nil {
		t.Fatal(err)
	}
	if f.secrets.reads != 2 {
		t.Errorf("%d reads after a new version, want 2", f.secrets.reads)
	}
	f.registry.ForgetSecret("team-a", "os")
	if n, _ := f.registry.parsed.len(); n != 0 {
		t.Errorf("%d parsed Secrets kept after the Secret went, want 0", n)
	}
}

// The parsed Secrets kept are bounded in number and bytes, the least recently used going
// first.
func TestParsedCacheIsBounded(t *testing.T) {
	c := newParsedCache()
	for i := range maxParsedSecrets + 10 {
		c.put(key("ns", fmt.Sprintf("s%d", i)), &parsedSecret{size: 100})
	}
	if n, _ := c.len(); n != maxParsedSecrets {
		t.Errorf("%d kept, want %d", n, maxParsedSecrets)
	}
	if _, ok := c.get(key("ns", "s0")); ok {
		t.Error("the least recently used was kept")
	}
	big := newParsedCache()
	for i := range 10 {
		big.put(key("ns", fmt.Sprintf("b%d", i)), &parsedSecret{size: maxParsedBytes / 4})
	}
	if n, bytes := big.len(); bytes > maxParsedBytes || n != 4 {
		t.Errorf("%d kept, %d bytes; want 4 within %d", n, bytes, maxParsedBytes)
	}
}
