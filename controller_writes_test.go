package main

import (
	"strconv"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/networktest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
)

// The informer's reports of the controller's own writes, and the passes they would queue.

// TestOwnWritesQueueNoPass: the informer's report of what the controller wrote itself (the
// finalizer, the status of a create) queues nothing, as the pass that wrote it went on from
// it; the next version, written by someone else, is queued.
func TestOwnWritesQueueNoPass(t *testing.T) {
	n := networktest.NewNetwork("own", "10.0.0.0/24", "")
	f := newFixture(t, n)
	// The fake API keeps resourceVersions as written; the real one gives each write a new one.
	version := 10
	f.Client.PrependReactor("update", "networks", func(action k8stesting.Action) (bool, runtime.Object, error) {
		version++
		action.(k8stesting.UpdateAction).GetObject().(*samplecrdv1.Network).ResourceVersion = strconv.Itoa(version)
		return false, nil, nil
	})
	f.startLeading()
	if err := f.sync(n); err != nil {
		t.Fatal(err)
	}
	written := f.Refresh(n.Namespace, n.Name)
	if written.ResourceVersion == n.ResourceVersion {
		t.Fatalf("the API gave the written Network no new resourceVersion (%q)", written.ResourceVersion)
	}
	f.controller.handleUpdate(n, written)
	if got := f.controller.workqueue.Len(); got != 0 {
		t.Fatalf("the controller's own write queued %d items, want 0", got)
	}
	if got := networktest.Series(t, f.controller.metrics, "network_controller_api_write_duration_seconds"); got[metrics.WriteStatus].GetHistogram().GetSampleCount() == 0 ||
		got[metrics.WriteFinalizer].GetHistogram().GetSampleCount() != 1 {
		t.Errorf("api_write_duration_seconds = %v, want status writes and one finalizer write", got)
	}

	edited := written.DeepCopy()
	edited.Labels = map[string]string{"team": "a"}
	edited, err := f.Client.SamplecrdV1().Networks(n.Namespace).Update(f.Ctx, edited, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f.controller.handleUpdate(written, edited)
	if got := f.controller.workqueue.Len(); got != 1 {
		t.Fatalf("someone else's write queued %d items, want 1", got)
	}
	// A version is claimed once: delivered again (a relist), it is queued like any other.
	takeOne(t, f.controller)
	f.controller.handleUpdate(edited, written)
	if got := f.controller.workqueue.Len(); got != 1 {
		t.Fatalf("the controller's own version delivered a second time queued %d items, want 1", got)
	}
}

// TestReportsDuringAPassAreSortedAtItsEnd: the informer may report a pass's own write
// before the write returns, while the pass runs; the pass's end tells its own versions
// from someone else's, and only someone else's queues the Network again.
func TestReportsDuringAPassAreSortedAtItsEnd(t *testing.T) {
	for _, tc := range []struct {
		name    string
		foreign bool
		want    int
	}{{"only its own writes", false, 0}, {"someone else's change as well", true, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			n := networktest.NewNetwork("raced", "10.0.0.0/24", "")
			f := newFixture(t, n)
			version := 10
			f.Client.PrependReactor("update", "networks", func(action k8stesting.Action) (bool, runtime.Object, error) {
				version++
				written := action.(k8stesting.UpdateAction).GetObject().(*samplecrdv1.Network)
				written.ResourceVersion = strconv.Itoa(version)
				// The informer is first: it delivers the write before the writer hears back.
				f.controller.handleUpdate(n, written.DeepCopy())
				if tc.foreign {
					other := written.DeepCopy()
					other.ResourceVersion = "foreign-" + strconv.Itoa(version)
					f.controller.handleUpdate(n, other)
				}
				return false, nil, nil
			})
			f.startLeading()
			f.controller.workqueue.Add(cache.MetaObjectToName(n))
			f.controller.processNextWorkItem(f.Ctx)
			networktest.WantReady("10.0.0.1")(t, f.Refresh("default", "raced"))
			if got := f.controller.workqueue.Len(); got != tc.want {
				t.Errorf("queued after the pass: %d, want %d", got, tc.want)
			}
		})
	}
}
