package neutronclient

import (
	"context"
	"net/http"
	"reflect"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// The quota is read from the project's quota details, the project ID escaped in the path.
func TestProjectQuotaReadsTheDetails(t *testing.T) {
	c, got := recordingNeutron(t, http.StatusOK, `{"quota": {"network": {"limit": 2, "used": 2, "reserved": 0},
		"subnet": {"limit": -1, "used": 5, "reserved": 1}}}`)
	quota, err := c.ProjectQuota(context.Background(), "p/1")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]neutron.QuotaUsage{"network": {Limit: 2, Used: 2}, "subnet": {Limit: -1, Used: 5, Reserved: 1}}
	if !reflect.DeepEqual(quota, want) {
		t.Errorf("quota = %+v, want %+v", quota, want)
	}
	wantRequests(t, *got, request{"GET", "/v2.0/quotas/p%2F1/details", ""})
}

// Every OverQuota answer is told, and no other.
func TestOnOverQuotaIsToldOfEachRefusal(t *testing.T) {
	c, _ := recordingNeutron(t, http.StatusConflict, `{"NeutronError": {"type": "OverQuota", "message": "Quota exceeded for resources: ['network']."}}`)
	refusals := 0
	c.OnOverQuota(func() { refusals++ })
	for range 2 {
		if _, err := c.CreateNetwork(context.Background(), neutron.NetworkRequest{}); neutron.KindOf(err) != neutron.KindOverQuota {
			t.Fatalf("create = %v, want OverQuota", err)
		}
	}
	other, _ := recordingNeutron(t, http.StatusConflict, `{"NeutronError": {"type": "NetworkInUse", "message": "in use"}}`)
	other.OnOverQuota(func() { refusals++ })
	if err := other.DeleteNetwork(context.Background(), "n1"); neutron.KindOf(err) != neutron.KindInUse {
		t.Fatalf("delete = %v, want InUse", err)
	}
	if refusals != 2 {
		t.Errorf("told of %d refusals, want 2", refusals)
	}
}
