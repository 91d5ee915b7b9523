package neutronstore

import (
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A fill's lists may have been answered before a router the Store made meanwhile: the
// refill keeps that router, so that the next pass does not make a second one.
func TestRouterRefillKeepsRoutersMadeDuringTheLists(t *testing.T) {
	b := newRouterBook()
	b.putRouter(neutron.Router{ID: "old"})
	since := b.views.rev()
	b.putRouter(neutron.Router{ID: "made-during-the-lists"})
	b.refill(since, []string{"net"}, []neutron.Router{{ID: "listed"}}, nil)
	for _, id := range []string{"listed", "made-during-the-lists"} {
		if _, ok := b.router(neutron.Ref{ID: id}); !ok {
			t.Errorf("router %s is missing after the refill", id)
		}
	}
	if _, ok := b.router(neutron.Ref{ID: "old"}); ok {
		t.Error("router old, not listed and not changed since, is still there")
	}
	if _, known := b.views.of("net"); !known {
		t.Error("the interfaces of net are not known after the refill")
	}
}
