package registry

import (
	"context"
	"fmt"
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
	// turnIn, when set, defers the next authentication for its namespace's turn once.
	turnIn   time.Duration
	attempts []string
	neutrons map[string]*neutronfake.Driver
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
	if k.turnIn > 0 {
		delay := k.turnIn
		k.turnIn = 0
		return nil, neutron.Place{}, fmt.Errorf("cloud c: %w", &neutron.ThrottledError{Op: "token request of " + user, Delay: delay, Turn: "team"})
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
	f.registry = NewRegistry(Config{ClusterID: "cluster", Policy: policyForTest(t), Own: own, UnavailableBackoff: 5 * time.Second},
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
	var src *Source
	if secret != "" {
		src = OwnSecret(namespace, ref(secret))
	}
	return f.registry.Resolve(f.ctx, key(namespace, name), src)
}

func wantReason(t *testing.T, err error, reason string) *Error {
	t.Helper()
	e, ok := AsError(err)
	if !ok || e.Reason != reason {
		t.Fatalf("err = %v, want reason %s", err, reason)
	}
	return e
}
