package registry

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

func TestNetworksOfOneSecretShareOneClientAndStore(t *testing.T) {
	f := newRegistryFixture(t, nil)
	f.keystone.passwords["alice"] = "pw"
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "pw"))

	var stores []*neutronstore.Store
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
	if _, err := a.Store.CreateNetwork(f.ctx, neutron.Owner{ClusterID: "cluster", Namespace: "team-a", Name: "n", UID: "u1"}, neutron.DesiredNetwork{}, neutron.Marks{}); err != nil {
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
		{"another trust", neutron.Place{Identity: testAuthURL, Region: "RegionOne", Endpoint: "http://neutron.example.com:9696/", ProjectID: "project-own", Trust: trustUnverified}},
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
	if n := len(f.registry.Projects()); n != 4 {
		t.Errorf("%d places, want 4: the own one and one per claiming credential", n)
	}
}

// An authentication deferred for its namespace's turn of token requests is not a failure:
// no reason for the Network, no backoff, and the next run authenticates.
func TestAuthenticationDeferredForItsTurnIsNotAFailure(t *testing.T) {
	f := newRegistryFixture(t, nil)
	f.secrets.put("team", "creds", "1", cloudsYAMLFor("alice", "pw"))
	f.keystone.passwords["alice"] = "pw"
	f.keystone.turnIn = 300 * time.Millisecond

	_, err := f.resolve("team", "net", "creds")
	if throttled, ok := neutron.AsThrottled(err); !ok || throttled.Delay != 300*time.Millisecond {
		t.Fatalf("resolve while the turn waits = %v, want the *ThrottledError", err)
	}
	if e, ok := AsError(err); ok {
		t.Fatalf("the deferral was recorded as a failure: %s", e.Reason)
	}
	if _, err := f.resolve("team", "net", "creds"); err != nil {
		t.Fatalf("resolve once the turn came = %v, want connected at once (no backoff)", err)
	}
	if got := f.keystone.attemptsOf("alice"); got != 2 {
		t.Errorf("authentications = %d, want 2", got)
	}
}

// After Unfill, the next use of each project lists it again (a shard taken over may
// have Neutron resources its last holder made), and only the next.
func TestUnfillRefillsOnNextUse(t *testing.T) {
	driver := neutronfake.New()
	f := newRegistryFixture(t, &Own{Driver: driver, Place: placeOf("project-own")})
	if _, err := f.resolve("default", "n", ""); err != nil {
		t.Fatal(err)
	}
	f.registry.Unfill()
	for range 2 {
		if _, err := f.resolve("default", "m", ""); err != nil {
			t.Fatal(err)
		}
	}
	if got := driver.Calls(); !slices.Equal(got, []string{"list networks", "list subnets", "list networks", "list subnets"}) {
		t.Errorf("Neutron calls %q, want a fill, and one more after Unfill", got)
	}
}
