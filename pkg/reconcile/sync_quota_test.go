package reconcile_test

import (
	"slices"
	"strings"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	. "github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Neutron's OverQuota names the resource; the condition names it with the project's
// limit and use, read with one call after the refusal.
func TestOverQuotaNamesTheResourceAndItsLimit(t *testing.T) {
	network := NewNetwork("fourth", "10.21.0.0/24", "")
	f := NewInProject(t, "project-q", network)
	for _, id := range []string{"a", "b", "c"} {
		f.Neutron.PutNetwork(neutron.Network{ID: id, ProjectID: "project-q"})
	}
	f.StartLeading()
	f.Neutron.SetQuota("network", 3)
	f.Neutron.FailWith("create network", &neutron.Error{Op: "create network", Kind: neutron.KindOverQuota, Code: 409, Type: "OverQuota",
		Message: "Quota exceeded for resources: ['network']."})
	f.Neutron.ClearCalls()

	checkOutcome(t, "sync", retries, f.Sync(network))
	c := ReadyCondition(t, f.Refresh(network.Namespace, network.Name))
	want := "Neutron quota of the project exhausted: network (limit 3, 3 in use) (create network: Quota exceeded for resources: ['network']); retrying with backoff"
	if c.Reason != samplecrdv1.ReasonOverQuota || !strings.HasPrefix(c.Message, want) {
		t.Errorf("Ready = %s %q, want OverQuota %q", c.Reason, c.Message, want)
	}
	if got := f.Neutron.Calls(); !slices.Equal(got, []string{"create network", "read quota"}) {
		t.Errorf("Neutron calls = %q, want the create and one read of the quota", got)
	}

	// A quota that cannot be read leaves the limit out, not the failure.
	f.Neutron.FailWith("read quota", &neutron.Error{Op: "read quota", Kind: neutron.KindRejected, Code: 403, Message: "disallowed by policy"})
	checkOutcome(t, "retry", retries, f.Sync(f.Refresh(network.Namespace, network.Name)))
	c = ReadyCondition(t, f.Refresh(network.Namespace, network.Name))
	if !strings.HasPrefix(c.Message, "Neutron quota of the project exhausted: network (create network:") {
		t.Errorf("Ready message without the quota = %q", c.Message)
	}
}
