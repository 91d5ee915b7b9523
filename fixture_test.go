package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	k8sfake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2/ktesting"
	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/client/clientset/versioned/fake"
	informers "github.com/samplecrd/network-controller/pkg/client/informers/externalversions"
	"github.com/samplecrd/network-controller/pkg/grants"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/reconcile"
	"github.com/samplecrd/network-controller/pkg/scope"
	"github.com/samplecrd/network-controller/pkg/subnetplan"
	"github.com/samplecrd/network-controller/pkg/tenancy"
)

// The fixture every unit test of the controller builds on, the Networks it is fed, and
// the checks the tests share.

const testClusterID = "test-cluster"

// anHourAgo is when the Neutron resources a test starts with were created: long enough
// ago that no grace period protects them.
var anHourAgo = time.Now().Add(-time.Hour)

// fixture is a controller wired to a fake clientset, a hand-fed informer cache and a fake
// Neutron. Tests call syncHandler or processNextWorkItem themselves.
type fixture struct {
	t          *testing.T
	ctx        context.Context
	client     *fake.Clientset
	neutron    *neutronfake.Driver
	recorder   *record.FakeRecorder
	controller *Controller
	indexer    cache.Indexer
	grants     *fixtureGrants
}

func newFixture(t *testing.T, objects ...*samplecrdv1.Network) *fixture {
	t.Helper()
	return newFixtureWith(t, "", func(*Config) {}, objects...)
}

// newFixtureInProject is newFixture with the controller's own cloud in projectID (""
// for a Neutron without authentication).
func newFixtureInProject(t *testing.T, projectID string, objects ...*samplecrdv1.Network) *fixture {
	t.Helper()
	return newFixtureWith(t, projectID, func(*Config) {}, objects...)
}

// newFixtureWithConfig is newFixture with the controller's Config changed by configure.
func newFixtureWithConfig(t *testing.T, configure func(*Config), objects ...*samplecrdv1.Network) *fixture {
	t.Helper()
	return newFixtureWith(t, "", configure, objects...)
}

func newFixtureWith(t *testing.T, projectID string, configure func(*Config), objects ...*samplecrdv1.Network) *fixture {
	t.Helper()
	_, ctx := ktesting.NewTestContext(t)
	ctx, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)

	var runtimeObjects []runtime.Object
	for _, o := range objects {
		runtimeObjects = append(runtimeObjects, o)
	}
	client := fake.NewClientset(runtimeObjects...)
	factory := informers.NewSharedInformerFactory(client, 0)
	networkInformer := factory.Samplecrd().V1().Networks()
	driver := neutronfake.New()

	// The controller's own cloud is this fake Neutron; no Network of these tests names
	// credentials.
	tenants := tenancy.NewRegistry(tenancy.Config{ClusterID: testClusterID, Own: &tenancy.Own{Driver: driver, Place: neutron.Place{ProjectID: projectID}}}, noSecrets{}, nil)
	config := Config{
		ClusterID:         testClusterID,
		OrphanGracePeriod: time.Minute,
		RetryBaseDelay:    time.Millisecond,
		RetryMaxDelay:     10 * time.Millisecond,
	}
	configure(&config)
	recorder := record.NewFakeRecorder(100)
	// Every power, as an operator's identity listing all a case uses would grant; the
	// fence's cases take them away (fixtureGrants.set).
	book := &fixtureGrants{powers: grants.Unfenced}
	c, err := NewController(ctx, k8sfake.NewClientset(), client, scope.Single(networkInformer.Informer()), nil, tenants, book, recorder, metrics.New(), config)
	if err != nil {
		t.Fatalf("NewController: %v", err)
	}

	f := &fixture{t: t, ctx: ctx, client: client, neutron: driver, recorder: recorder, controller: c, grants: book,
		indexer: networkInformer.Informer().GetIndexer()}
	for _, o := range objects {
		f.putCache(o)
	}
	return f
}

// putCache makes obj what the lister returns, as the informer would after a watch event.
func (f *fixture) putCache(obj *samplecrdv1.Network) {
	f.t.Helper()
	if err := f.indexer.Add(obj); err != nil {
		f.t.Fatalf("adding to cache: %v", err)
	}
}

// refresh copies the object from the fake API into the cache and returns it.
func (f *fixture) refresh(ns, name string) *samplecrdv1.Network {
	f.t.Helper()
	obj, err := f.client.SamplecrdV1().Networks(ns).Get(f.ctx, name, metav1.GetOptions{})
	if err != nil {
		f.t.Fatalf("getting Network %s/%s: %v", ns, name, err)
	}
	if err := f.indexer.Update(obj); err != nil {
		f.t.Fatalf("updating cache: %v", err)
	}
	return obj
}

// startLeading fills the Neutron store as Run does before its workers start, and forgets
// the calls that took, so tests see only the calls of what they do next.
func (f *fixture) startLeading() {
	f.t.Helper()
	if err := f.controller.waitForStore(f.ctx); err != nil {
		f.t.Fatalf("filling the store: %v", err)
	}
	f.neutron.ClearCalls()
	f.client.ClearActions()
}

// writes returns the API writes made so far, as "verb resource[/subresource]".
func (f *fixture) writes() []string {
	var out []string
	for _, a := range f.client.Actions() {
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

func (f *fixture) sync(obj *samplecrdv1.Network) error {
	return f.controller.syncHandler(f.ctx, cache.MetaObjectToName(obj))
}

// events drains the recorded Events.
func (f *fixture) events() []string {
	var out []string
	for {
		select {
		case e := <-f.recorder.Events:
			out = append(out, e)
		default:
			return out
		}
	}
}

func newNetwork(name, cidr, gateway string) *samplecrdv1.Network {
	n := newNetworkIn(metav1.NamespaceDefault, name, cidr)
	n.Spec.Gateway = gateway
	return n
}

func newNetworkIn(namespace, name, cidr string) *samplecrdv1.Network {
	return &samplecrdv1.Network{
		TypeMeta: metav1.TypeMeta{APIVersion: samplecrdv1.SchemeGroupVersion.String(), Kind: "Network"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: namespace, UID: uidFor(namespace, name),
			Generation: 1, ResourceVersion: "1",
		},
		Spec: samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr}},
	}
}

// uidFor makes a UID shaped like the apiserver's (a 36-character UUID), fixed per object.
func uidFor(namespace, name string) types.UID {
	h := fmt.Sprintf("%x", sha256.Sum256([]byte(namespace+"/"+name)))
	return types.UID(h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32])
}

func ownerOf(n *samplecrdv1.Network) neutron.Owner {
	return neutron.Owner{ClusterID: testClusterID, Namespace: n.Namespace, Name: n.Name, UID: string(n.UID)}
}

func readyCondition(t *testing.T, n *samplecrdv1.Network) metav1.Condition {
	t.Helper()
	c := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionReady)
	if c == nil {
		t.Fatalf("Network %s has no Ready condition; status %+v", n.Name, n.Status)
	}
	return *c
}

func hasEvent(events []string, fragment string) bool {
	return slices.ContainsFunc(events, func(e string) bool { return strings.Contains(e, fragment) })
}

// realizedNetwork is a Network whose status says it is Ready with the Neutron resources
// putRealized makes.
func realizedNetwork(name, cidr, gateway string) *samplecrdv1.Network {
	n := withFinalizer(newNetwork(name, cidr, gateway))
	plan, err := subnetplan.Plan(subnetplan.Spec{CIDR: cidr})
	if err != nil {
		panic(err)
	}
	n.Status = samplecrdv1.NetworkStatus{
		ObservedGeneration: 1, NetworkID: "net-of-" + name, SubnetID: "subnet-of-" + name, Gateway: plan.Gateway.String(),
		EnableDHCP: ptr.To(true), CIDRs: cidr,
	}
	setReadyCondition(&n.Status, 1, metav1.ConditionTrue, samplecrdv1.ReasonProvisioned,
		fmt.Sprintf("Neutron network %s with subnet %s (%s, gateway %s)", n.Status.NetworkID, n.Status.SubnetID, cidr, plan.Gateway))
	return n
}

// putRealized stores the network and subnet that realizedNetwork's status names, as
// Neutron holds them after the controller made them for that cidr and gateway (and the
// spec's defaults: no DNS servers, no routes, DHCP on).
func putRealized(d *neutronfake.Driver, owner neutron.Owner, cidr, gateway string) {
	plan, err := subnetplan.Plan(subnetplan.Spec{CIDR: cidr, Gateway: gateway})
	if err != nil {
		panic(err)
	}
	var pools []neutron.Pool
	for _, p := range plan.AllocationPools {
		pools = append(pools, neutron.Pool{Start: p.Start.String(), End: p.End.String()})
	}
	netID := "net-of-" + owner.Name
	d.PutNetwork(neutron.Network{ID: netID, Name: owner.ResourceName(), Description: neutron.ClusterDescription(owner.ClusterID), Tags: owner.Tags()})
	d.PutSubnet(neutron.Subnet{ID: "subnet-of-" + owner.Name, NetworkID: netID, Name: owner.ResourceName(),
		Description: neutron.ClusterDescription(owner.ClusterID), CIDR: cidr, IPVersion: 4, GatewayIP: gateway, AllocationPools: pools, EnableDHCP: true})
}

func withFinalizer(n *samplecrdv1.Network) *samplecrdv1.Network {
	n.Finalizers = []string{samplecrdv1.FinalizerName}
	return n
}

func withGeneration(n *samplecrdv1.Network, generation int64) *samplecrdv1.Network {
	n.Generation = generation
	return n
}

func deleting(n *samplecrdv1.Network) *samplecrdv1.Network {
	now := metav1.Now()
	n.DeletionTimestamp = &now
	return n
}

func wantReady(gateway string) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		t.Helper()
		c := readyCondition(t, got)
		if c.Status != metav1.ConditionTrue || c.Reason != samplecrdv1.ReasonProvisioned || c.ObservedGeneration != got.Generation {
			t.Errorf("Ready = %s/%s for generation %d, want True/Provisioned for %d", c.Status, c.Reason, c.ObservedGeneration, got.Generation)
		}
		if got.Status.NetworkID == "" || got.Status.SubnetID == "" || got.Status.Gateway != gateway || got.Status.ObservedGeneration != got.Generation {
			t.Errorf("status = %+v, want both IDs, gateway %s, observedGeneration %d", got.Status, gateway, got.Generation)
		}
		wantProgressConditions(t, got)
	}
}

func wantNotReady(reason, inMessage string) func(*testing.T, *samplecrdv1.Network) {
	return func(t *testing.T, got *samplecrdv1.Network) {
		t.Helper()
		c := readyCondition(t, got)
		if c.Status != metav1.ConditionFalse || c.Reason != reason || !strings.Contains(c.Message, inMessage) {
			t.Errorf("Ready = %s/%s %q, want False/%s mentioning %q", c.Status, c.Reason, c.Message, reason, inMessage)
		}
		wantProgressConditions(t, got)
	}
}

// eventKinds reduces recorded Events ("Type Reason message") to "Type Reason".
func eventKinds(events []string) []string {
	var out []string
	for _, e := range events {
		fields := strings.Fields(e)
		if len(fields) >= 2 {
			out = append(out, fields[0]+" "+fields[1])
		}
	}
	return out
}

// fixtureGrants grants every namespace the same powers in the controller's own cloud,
// delegates the projects of delegations to every namespace, and tells the controller when
// they change.
type fixtureGrants struct {
	powers grants.Powers
	// delegations are the identities with a Secret, by name; notDelegating, those without.
	delegations   map[string]grants.Delegation
	notDelegating []string
	changed       func(namespace string)
}

func (g *fixtureGrants) OwnCloud(string) (grants.Powers, error) { return g.powers, nil }
func (g *fixtureGrants) HasSynced() bool                        { return true }
func (g *fixtureGrants) OnChange(changed func(namespace string)) error {
	g.changed = changed
	return nil
}

func (g *fixtureGrants) Delegation(_, identity string) (grants.Delegation, error) {
	if d, ok := g.delegations[identity]; ok {
		return d, nil
	}
	if slices.Contains(g.notDelegating, identity) {
		return grants.Delegation{}, grants.ErrNotDelegating
	}
	return grants.Delegation{}, grants.ErrNotSelected
}

func (g *fixtureGrants) DelegatesTo(secret cache.ObjectName) []string {
	var names []string
	for name, d := range g.delegations {
		if d.Secret == secret {
			names = append(names, name)
		}
	}
	return names
}

// set changes the powers, as an operator's change of an identity selecting namespace would.
func (g *fixtureGrants) set(namespace string, powers grants.Powers) {
	g.powers = powers
	g.changed(namespace)
}

// noSecrets is a cluster without Secrets.
type noSecrets struct{}

func (noSecrets) Version(_ context.Context, namespace, name string) (string, error) {
	return "", &tenancy.Error{Reason: samplecrdv1.ReasonCredentialsSecretNotFound, Message: "Secret " + namespace + "/" + name + " does not exist"}
}
func (noSecrets) Data(context.Context, string, string) (map[string][]byte, string, error) {
	return nil, "", errors.New("no Secrets in this test")
}

// setReadyCondition sets the Ready condition as the controller writes it.
func setReadyCondition(status *samplecrdv1.NetworkStatus, generation int64, s metav1.ConditionStatus, reason, message string) {
	meta.SetStatusCondition(&status.Conditions, metav1.Condition{
		Type: samplecrdv1.ConditionReady, Status: s, Reason: reason, Message: message, ObservedGeneration: generation,
	})
}

// isTerminal reports whether err is a failure recorded in status that waits for a change.
func isTerminal(err error) bool {
	f, ok := reconcile.RecordedFailure(err)
	return ok && f.Terminal
}
