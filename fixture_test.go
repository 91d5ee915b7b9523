package main

import (
	"testing"
	"time"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/networktest"
)

// fixture is a Controller wired over networktest's fakes. Tests call syncHandler or
// processNextWorkItem themselves.
type fixture struct {
	*networktest.Fixture
	controller *Controller
}

func newFixture(t *testing.T, objects ...*samplecrdv1.Network) *fixture {
	t.Helper()
	return newFixtureWithConfig(t, func(*Config) {}, objects...)
}

// newFixtureWithConfig is newFixture with the controller's Config changed by configure.
func newFixtureWithConfig(t *testing.T, configure func(*Config), objects ...*samplecrdv1.Network) *fixture {
	t.Helper()
	fakes := networktest.NewFakes(t, "", objects...)
	config := Config{
		ClusterID:         networktest.ClusterID,
		OrphanGracePeriod: time.Minute,
		RetryBaseDelay:    time.Millisecond,
		RetryMaxDelay:     10 * time.Millisecond,
	}
	configure(&config)
	c, err := NewController(fakes.Ctx, fakes.Client, fakes.Networks, credentials.WithoutWatches(fakes.Tenants, fakes.Networks, config.Namespaces),
		fakes.Recorder, fakes.Metrics, config)
	if err != nil {
		t.Fatalf("NewController: %v", err)
	}
	return &fixture{Fixture: fakes, controller: c}
}

// startLeading fills the Neutron store as Run does before its workers start, and forgets
// the calls that took, so tests see only the calls of what they do next.
func (f *fixture) startLeading() {
	f.T.Helper()
	if err := f.controller.waitForStore(f.Ctx); err != nil {
		f.T.Fatalf("filling the store: %v", err)
	}
	f.Neutron.ClearCalls()
	f.Client.ClearActions()
}

// sync runs the worker's handler for obj's key.
func (f *fixture) sync(obj *samplecrdv1.Network) error {
	return f.controller.syncHandler(f.Ctx, cache.MetaObjectToName(obj))
}
