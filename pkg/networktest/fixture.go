package networktest

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/client/clientset/versioned/fake"
	informers "github.com/samplecrd/network-controller/pkg/client/informers/externalversions"
	listers "github.com/samplecrd/network-controller/pkg/client/listers/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/reconcile"
	"github.com/samplecrd/network-controller/pkg/scope"
)

// ClusterID is the cluster ID in the ownership marks of every fixture.
const ClusterID = "test-cluster"

// FieldManager is the field manager of the fixture's Reconciler.
const FieldManager = "network-controller-test"

// AnHourAgo is when the Neutron resources a test starts with were created: long enough
// ago that no grace period protects them.
var AnHourAgo = time.Now().Add(-time.Hour)

// Fixture is a Reconciler over fakes: a fake clientset, a hand-fed informer cache and a
// fake Neutron that is the controller's own cloud. Tests call Sync themselves.
type Fixture struct {
	T        *testing.T
	Ctx      context.Context
	Client   *fake.Clientset
	Neutron  *neutronfake.Driver
	Recorder *record.FakeRecorder
	// Networks is the informer cache of Networks, fed by Put and Refresh only.
	Networks *scope.Informers
	// Tenants are made of TenantsConfig: the controller's own cloud, no Secrets, Grants.
	Tenants       *credentials.Tenants
	TenantsConfig credentials.TenantsConfig
	// Grants gives every namespace every power, until a test takes some away.
	Grants  *Grants
	Metrics *metrics.Metrics
	// Reconciler is nil in a fixture made by NewFakes.
	Reconciler *reconcile.Reconciler

	indexer cache.Indexer
}

// New returns a Fixture whose cache and API hold objects, with the controller's own cloud
// in a Neutron without authentication.
func New(t *testing.T, objects ...*samplecrdv1.Network) *Fixture {
	t.Helper()
	return NewInProject(t, "", objects...)
}

// NewInProject is New with the controller's own cloud in projectID.
func NewInProject(t *testing.T, projectID string, objects ...*samplecrdv1.Network) *Fixture {
	t.Helper()
	f := NewFakes(t, projectID, objects...)
	f.Reconciler = reconcile.New(f.ReconcilerConfig())
	return f
}

// ReconcilerConfig is the configuration of the Reconciler New makes over the fakes, for a
// test that makes one of its own with a setting changed.
func (f *Fixture) ReconcilerConfig() reconcile.Config {
	return reconcile.Config{Client: f.Client, FieldManager: FieldManager, Tenants: f.Tenants,
		Networks: f.Networks, Recorder: f.Recorder, Metrics: f.Metrics, ClusterID: ClusterID}
}

// NewFakes returns the fakes of NewInProject without a Reconciler, for a test that wires
// its own over them.
func NewFakes(t *testing.T, projectID string, objects ...*samplecrdv1.Network) *Fixture {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)

	var runtimeObjects []runtime.Object
	for _, o := range objects {
		runtimeObjects = append(runtimeObjects, o)
	}
	client := fake.NewClientset(runtimeObjects...)
	informer := informers.NewSharedInformerFactory(client, 0).Samplecrd().V1().Networks().Informer()
	driver := neutronfake.New()
	// No Network of these tests names credentials unless it says so; those that do find
	// no Secret.
	f := &Fixture{T: t, Ctx: ctx, Client: client, Neutron: driver, Recorder: record.NewFakeRecorder(100),
		Networks: scope.Single(informer), Grants: &Grants{Powers: grants.Unfenced}, Metrics: metrics.New(),
		indexer: informer.GetIndexer()}
	f.TenantsConfig = credentials.TenantsConfig{ClusterID: ClusterID, Own: &credentials.Own{Driver: driver, Place: neutron.Place{ProjectID: projectID}},
		Secrets: NoSecrets{}, Grants: f.Grants}
	f.UseTenants(func(*credentials.TenantsConfig) {})
	for _, o := range objects {
		f.Put(o)
	}
	return f
}

// Put makes obj what the informer cache holds, as after a watch event.
func (f *Fixture) Put(obj *samplecrdv1.Network) {
	f.T.Helper()
	if err := f.indexer.Add(obj); err != nil {
		f.T.Fatalf("adding to cache: %v", err)
	}
}

// Refresh copies the object from the fake API into the cache and returns it.
func (f *Fixture) Refresh(ns, name string) *samplecrdv1.Network {
	f.T.Helper()
	obj, err := f.Client.SamplecrdV1().Networks(ns).Get(f.Ctx, name, metav1.GetOptions{})
	if err != nil {
		f.T.Fatalf("getting Network %s/%s: %v", ns, name, err)
	}
	if err := f.indexer.Update(obj); err != nil {
		f.T.Fatalf("updating cache: %v", err)
	}
	return obj
}

// UseTenants makes Tenants anew of TenantsConfig as change leaves it, and the Reconciler
// anew over them when there is one.
func (f *Fixture) UseTenants(change func(*credentials.TenantsConfig)) {
	f.T.Helper()
	change(&f.TenantsConfig)
	tenants, err := credentials.NewTenants(f.TenantsConfig)
	if err != nil {
		f.T.Fatalf("making the tenants: %v", err)
	}
	f.Tenants = tenants
	if f.Reconciler != nil {
		f.Reconciler = reconcile.New(f.ReconcilerConfig())
	}
}

// WarnOfExpiry makes the tenants warn of credentials that expire within window.
func (f *Fixture) WarnOfExpiry(window time.Duration) {
	f.UseTenants(func(c *credentials.TenantsConfig) { c.ExpiryWarning = window })
}

// FillStore fills the store of the controller's own project, as a leader does before its
// workers start.
func (f *Fixture) FillStore() {
	f.T.Helper()
	if _, err := f.Tenants.FillOwn(f.Ctx); err != nil {
		f.T.Fatalf("filling the store: %v", err)
	}
}

// StartLeading is FillStore, then forgets the calls and writes that took, so that tests
// see only those of what they do next.
func (f *Fixture) StartLeading() {
	f.T.Helper()
	f.FillStore()
	f.Neutron.ClearCalls()
	f.Client.ClearActions()
}

// Sync hands the Reconciler the Network of obj's key as the informer cache holds it, as
// a worker does.
func (f *Fixture) Sync(obj *samplecrdv1.Network) error {
	f.T.Helper()
	return f.SyncKey(cache.MetaObjectToName(obj))
}

// SyncKey is Sync of the Network named by key.
func (f *Fixture) SyncKey(key cache.ObjectName) error {
	f.T.Helper()
	cached, err := listers.NewNetworkLister(f.indexer).Networks(key.Namespace).Get(key.Name)
	if err != nil {
		f.T.Fatalf("reading Network %s from the cache: %v", key, err)
	}
	return f.Reconciler.Sync(f.Ctx, cached)
}

// Writes returns the API writes made so far, as "verb resource[/subresource]".
func (f *Fixture) Writes() []string {
	var out []string
	for _, a := range f.Client.Actions() {
		switch a.GetVerb() {
		case "get", "list", "watch":
			continue
		}
		w := a.GetVerb() + " " + a.GetResource().Resource
		if sub := a.GetSubresource(); sub != "" {
			w += "/" + sub
		}
		out = append(out, w)
	}
	return out
}

// Events drains the recorded Events.
func (f *Fixture) Events() []string {
	var out []string
	for {
		select {
		case e := <-f.Recorder.Events:
			out = append(out, e)
		default:
			return out
		}
	}
}
