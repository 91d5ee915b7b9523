package neutronstore_test

import (
	"context"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// A Neutron resync fills the Store while workers write through it: a fill whose lists run
// after Neutron made a policy or an interface, but before its reply reached the Store,
// already has it. The reply must not record it twice: a policy known twice reads as a
// duplicate share, which the next pass deletes (and shares again).

// fillsDuringReply is the fake Neutron, whose share and attach run fill after doing the
// write and before replying.
type fillsDuringReply struct {
	*fake.Driver
	fill func()
}

func (d *fillsDuringReply) ShareNetwork(ctx context.Context, req neutron.ShareRequest) (neutron.RBACPolicy, error) {
	p, err := d.Driver.ShareNetwork(ctx, req)
	d.fill()
	return p, err
}

func (d *fillsDuringReply) AddRouterInterface(ctx context.Context, routerID, subnetID string) (neutron.Interface, error) {
	i, err := d.Driver.AddRouterInterface(ctx, routerID, subnetID)
	d.fill()
	return i, err
}

// newFillingStore returns a Store over d whose owner's network, made with marks, was
// created through it, and from then on fills once in the middle of each share and attach.
func newFillingStore(t *testing.T, marks neutron.Marks) (*neutronstore.Store, *fillsDuringReply, neutron.Network) {
	t.Helper()
	ctx := context.Background()
	d := &fillsDuringReply{Driver: fake.New(), fill: func() {}}
	s := neutronstore.New(d, owner.ClusterID, "")
	if err := s.Fill(ctx); err != nil {
		t.Fatal(err)
	}
	s.RecordAbsent(owner)
	net, err := s.CreateNetwork(ctx, owner, neutron.DesiredNetwork{}, marks)
	if err != nil {
		t.Fatal(err)
	}
	d.fill = func() {
		if err := s.Fill(ctx); err != nil {
			t.Errorf("fill during the reply: %v", err)
		}
	}
	return s, d, net
}

func TestShareRepliedAfterAFillIsKnownOnce(t *testing.T) {
	ctx := context.Background()
	s, d, net := newFillingStore(t, neutron.Marks{Sharing: true})
	made, err := s.Share(ctx, net.ID, "p-team-b")
	if err != nil {
		t.Fatal(err)
	}
	d.ClearCalls()
	known, err := s.Shares(ctx, net.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(known) != 1 || known[0].ID != made.ID {
		t.Errorf("the Store knows the policies %+v of network %s, want only the one made, %s", known, net.ID, made.ID)
	}
	checkCalls(t, d.Driver)
	// The next pass compares these with the spec: the one policy, of the project shared
	// with, and nothing more, or it would share again or delete it.
	if len(known) != 1 || known[0].TargetProject != "p-team-b" {
		t.Errorf("the Store knows the policies %+v, want the one of p-team-b", known)
	}
}

func TestInterfaceRepliedAfterAFillIsKnownOnce(t *testing.T) {
	ctx := context.Background()
	s, d, net := newFillingStore(t, neutron.Marks{Router: true})
	d.PutRouter(neutron.Router{ID: "router-1"})
	d.PutSubnet(neutron.Subnet{ID: "subnet-1", NetworkID: net.ID, CIDR: "10.0.0.0/24", GatewayIP: "10.0.0.1"})
	made, err := s.Attach(ctx, net.ID, "router-1", "subnet-1")
	if err != nil {
		t.Fatal(err)
	}
	d.ClearCalls()
	_, interfaces, err := s.Routers(ctx, net)
	if err != nil {
		t.Fatal(err)
	}
	if len(interfaces) != 1 || interfaces[0].ID != made.PortID || len(interfaces[0].FixedIPs) != 1 || interfaces[0].FixedIPs[0].SubnetID != "subnet-1" {
		t.Errorf("the Store knows the interfaces %+v on network %s, want only port %s on subnet-1", interfaces, net.ID, made.PortID)
	}
	checkCalls(t, d.Driver)
}

// An attach that lands after the Store read the network's interfaces (sent by a process
// since killed, or carried out after its sender gave up) makes Neutron refuse the Store's
// own: the router already has a port on the subnet. That refusal is a retryable conflict,
// not a rejected spec, and the next read of the network's routers finds the interface.
func TestInterfaceThatLandedBeforeTheAttachIsAConflict(t *testing.T) {
	ctx := context.Background()
	s, d, net := newFillingStore(t, neutron.Marks{Router: true})
	d.PutRouter(neutron.Router{ID: "router-1"})
	d.PutSubnet(neutron.Subnet{ID: "subnet-1", NetworkID: net.ID, CIDR: "10.0.0.0/24", GatewayIP: "10.0.0.1"})
	if _, interfaces, err := s.Routers(ctx, net); err != nil || len(interfaces) != 0 {
		t.Fatalf("Routers = %+v, %v; want no interface yet", interfaces, err)
	}
	landed, err := d.AddRouterInterface(ctx, "router-1", "subnet-1") // not through the Store
	if err != nil {
		t.Fatal(err)
	}
	d.ClearCalls()

	if _, err := s.Attach(ctx, net.ID, "router-1", "subnet-1"); neutron.KindOf(err) != neutron.KindConflict {
		t.Fatalf("Attach over an interface that landed = %v (kind %s), want a conflict", err, neutron.KindOf(err))
	}
	_, interfaces, err := s.Routers(ctx, net)
	if err != nil {
		t.Fatal(err)
	}
	if len(interfaces) != 1 || interfaces[0].ID != landed.PortID {
		t.Errorf("the Store knows the interfaces %+v on network %s, want the one that landed, port %s", interfaces, net.ID, landed.PortID)
	}
}
