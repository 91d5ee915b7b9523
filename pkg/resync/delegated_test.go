package resync

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
	"github.com/samplecrd/network-controller/pkg/scope"
)

const authURL = "https://keystone.example.com:5000/v3"

// delegatedCloud is the Keystone behind the identities' Secrets: each user's project has
// a fake Neutron of its own, and it counts the token requests.
type delegatedCloud struct {
	mu       sync.Mutex
	neutrons map[string]*neutronfake.Driver
	tokens   []string
}

func (k *delegatedCloud) connect(_ context.Context, creds neutronclient.Credentials) (neutron.Driver, neutron.Place, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.tokens = append(k.tokens, creds.Auth.Username)
	project := "project-of-" + creds.Auth.Username
	if k.neutrons[project] == nil {
		k.neutrons[project] = neutronfake.New()
	}
	return k.neutrons[project], neutron.Place{Identity: authURL, Region: "RegionOne", Endpoint: "https://neutron.example.com:9696/", ProjectID: project}, nil
}

// operatorSecrets are the identities' Secrets of namespace ops: each holds the cloud
// "prod" of the user its name says.
type operatorSecrets struct{}

func (operatorSecrets) Version(_ context.Context, namespace, name string) (string, error) {
	if namespace != "ops" || name == "missing" {
		return "", &credentials.Error{Reason: samplecrdv1.ReasonCredentialsSecretNotFound, Message: "Secret " + namespace + "/" + name + " does not exist"}
	}
	return "1", nil
}

func (s operatorSecrets) Data(ctx context.Context, namespace, name string) (map[string][]byte, string, error) {
	if _, err := s.Version(ctx, namespace, name); err != nil {
		return nil, "", err
	}
	return map[string][]byte{credentials.KeyCloudsYAML: []byte("clouds:\n  prod:\n    auth:\n      auth_url: " + authURL + "\n      username: " + name +
		"\n      password: secret\n      user_domain_name: Default\n      project_name: p\n      project_domain_name: Default\n")}, "1", nil
}

func delegating(name, secret string) *samplecrdv1.ClusterIdentity {
	identity := &samplecrdv1.ClusterIdentity{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if secret != "" {
		identity.Spec.SecretRef, identity.Spec.CloudName = &samplecrdv1.SecretReference{Namespace: "ops", Name: secret}, "prod"
	}
	return identity
}

// The orphan of a Network force-removed in a delegated project, which no Network uses
// any more, is collected: each pass reaches the project of every delegating identity
// with its Secret, with one token for all passes. An identity that delegates no project
// costs nothing, one whose Secret is missing stops no pass, and a controller watching
// some namespaces visits only the projects delegated to those. The project is let go
// with its identity.
func TestOrphansOfADelegatedProjectAreCollected(t *testing.T) {
	for _, tc := range []struct {
		name       string
		namespaces scope.Namespaces
		// selects are the namespaces each identity selects.
		selects map[string][]string
		// wantVisited are the projects visited, by user; wantLeft the networks left there.
		wantVisited []string
		wantLeft    map[string][]string
	}{{
		name:        "watching every namespace: every delegated project, used or not",
		wantVisited: []string{"team-b", "team-c"},
		wantLeft:    map[string][]string{"team-b": {"young"}, "team-c": {"young"}},
	}, {
		name:        "watching team-a: the projects delegated to team-a, and only team-a's orphans there",
		namespaces:  scope.Namespaces{"team-a"},
		selects:     map[string][]string{"team-b-prod": {"team-a", "team-z"}, "team-c-prod": {"team-c"}},
		wantVisited: []string{"team-b"},
		wantLeft:    map[string][]string{"team-b": {"of-team-z", "young"}, "team-c": {"forced", "of-team-z", "young"}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			keystone := &delegatedCloud{neutrons: map[string]*neutronfake.Driver{}}
			for _, user := range []string{"team-b", "team-c"} {
				d := neutronfake.New()
				keystone.neutrons["project-of-"+user] = d
				for _, o := range []struct {
					id, namespace string
					created       time.Time
				}{{"forced", "team-a", networktest.AnHourAgo}, {"of-team-z", "team-z", networktest.AnHourAgo}, {"young", "team-a", time.Now()}} {
					owner := neutron.Owner{ClusterID: networktest.ClusterID, Namespace: o.namespace, Name: o.id, UID: "uid-" + o.id}
					d.PutNetwork(neutron.Network{ID: o.id, Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID),
						Tags: owner.Tags(), CreatedAt: o.created, ProjectID: "project-of-" + user})
				}
			}
			identities := cache.NewStore(cache.MetaNamespaceKeyFunc)
			for _, identity := range []*samplecrdv1.ClusterIdentity{
				delegating("team-b-prod", "team-b"), delegating("team-c-prod", "team-c"), delegating("broken", "missing"), delegating("own-cloud-grants", ""),
			} {
				if err := identities.Add(identity); err != nil {
					t.Fatal(err)
				}
			}
			watched := map[string]string{}
			tenants, err := credentials.NewTenants(credentials.TenantsConfig{ClusterID: networktest.ClusterID, AuthURLs: []string{authURL},
				Own: &credentials.Own{Driver: neutronfake.New()}, Secrets: operatorSecrets{}, Connect: keystone.connect,
				Delegated: credentials.Delegated{Identities: identities,
					Delegation: func(namespace, identity string) (grants.Delegation, error) {
						if slices.Contains(tc.selects[identity], namespace) {
							return grants.Delegation{Identity: identity}, nil
						}
						return grants.Delegation{}, grants.ErrNotSelected
					},
					UseSecret: func(user, secret cache.ObjectName) { watched[user.Name] = secret.String() }}})
			if err != nil {
				t.Fatal(err)
			}
			f := newFixtureWithConfig(t, func(c *Config) { c.Tenants, c.Namespaces = tenants, tc.namespaces })
			if _, err := tenants.FillOwn(f.Ctx); err != nil {
				t.Fatal(err)
			}

			f.resync.Once(f.Ctx)
			f.resync.Once(f.Ctx)

			if !slices.Equal(keystone.tokens, tc.wantVisited) {
				t.Errorf("token requests of users %q in two passes, want one each of %q", keystone.tokens, tc.wantVisited)
			}
			for _, user := range []string{"team-b", "team-c"} {
				var left []string
				for _, n := range keystone.neutrons["project-of-"+user].Networks() {
					left = append(left, n.ID)
				}
				slices.Sort(left)
				if !slices.Equal(left, tc.wantLeft[user]) {
					t.Errorf("networks left in %s's project: %q, want %q", user, left, tc.wantLeft[user])
				}
			}
			for _, user := range tc.wantVisited {
				if got := watched["orphan-collection:"+user+"-prod"]; got != "ops/"+user {
					t.Errorf("Secret watched for the visit of %s-prod: %q, want ops/%s", user, got, user)
				}
			}
			if _, ok := watched["orphan-collection:own-cloud-grants"]; ok {
				t.Error("the Secret of an identity without secretRef was watched")
			}

			// The identity goes: its Secret is no longer watched, its project no longer visited.
			if err := identities.Delete(delegating("team-b-prod", "")); err != nil {
				t.Fatal(err)
			}
			f.resync.Once(f.Ctx)
			if got, ok := watched["orphan-collection:team-b-prod"]; !ok || got != "" {
				t.Errorf("Secret watched for team-b-prod after it went: %q, want none", got)
			}
			if slices.ContainsFunc(tenants.Projects(), func(p credentials.Project) bool { return p.Place.ProjectID == "project-of-team-b" }) {
				t.Error("team-b's project is still reached after its identity went")
			}
		})
	}
}
