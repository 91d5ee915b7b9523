package neutron

import (
	"testing"

	"github.com/gophercloud/gophercloud/v2/openstack/networking/v2/networks"
)

func TestListQueriesAskForTheFieldsTheControllerReads(t *testing.T) {
	q, err := networkQuery{networks.ListOpts{Description: "Managed by x"}}.ToNetworkListQuery()
	want := "?description=Managed+by+x&fields=id&fields=name&fields=description&fields=tags&fields=created_at"
	if err != nil || q != want {
		t.Errorf("query = %q (%v), want %q", q, err, want)
	}
	if got := withFields("", []string{"id"}); got != "?fields=id" {
		t.Errorf("withFields on an empty query = %q", got)
	}
}
