package resync

import (
	"slices"
	"testing"
	"time"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/networktest"
)

// fixture is a Resyncer over networktest's fakes, with the Reconciler that makes the
// Networks a resync looks at, and the keys the resync queued.
type fixture struct {
	*networktest.Fixture
	resync *Resyncer
	queued []cache.ObjectName
}

func newFixture(t *testing.T, objects ...*samplecrdv1.Network) *fixture {
	t.Helper()
	return newFixtureWithConfig(t, func(*Config) {}, objects...)
}

// newFixtureWithConfig is newFixture with the Resyncer's Config changed by configure.
func newFixtureWithConfig(t *testing.T, configure func(*Config), objects ...*samplecrdv1.Network) *fixture {
	t.Helper()
	f := &fixture{Fixture: networktest.New(t, objects...)}
	config := Config{Tenants: f.Tenants, Networks: f.Networks, Imports: f.Reconciler, Recorder: f.Recorder, Metrics: f.Metrics,
		Enqueue: func(key cache.ObjectName) {
			// A workqueue holds a key once however often it is added.
			if !slices.Contains(f.queued, key) {
				f.queued = append(f.queued, key)
			}
		},
		Checked: f.Reconciler.Checked, DefaultPeriod: time.Minute, ClusterID: networktest.ClusterID, OrphanGracePeriod: time.Minute}
	configure(&config)
	f.resync = New(config)
	return f
}

// drain syncs every queued Network as the informer cache holds it, as the workers would.
func (f *fixture) drain() {
	f.T.Helper()
	for len(f.queued) > 0 {
		key := f.queued[0]
		f.queued = f.queued[1:]
		// What a sync records in status is checked by the caller.
		_ = f.SyncKey(key)
	}
}

// checkAllDueAt makes every cached Network's drift check fall due at at and runs the
// checks due then, returning how many projects they listed.
func (f *fixture) checkAllDueAt(at time.Time) int {
	f.T.Helper()
	for _, obj := range f.Networks.List() {
		f.resync.due.schedule(cache.MetaObjectToName(obj.(*samplecrdv1.Network)), at)
	}
	return f.resync.CheckDue(f.Ctx, at)
}
