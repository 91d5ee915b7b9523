package main

import (
	"errors"
	"slices"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A controller that starts leading over Networks that are all Ready makes two list calls
// in all, whatever their number, and writes nothing.
func TestRestartWithReadyNetworksCostsTwoListCalls(t *testing.T) {
	var objects []*samplecrdv1.Network
	for _, name := range []string{"a", "b", "c"} {
		objects = append(objects, realizedNetwork(name, "10.20.0.0/24", ""))
	}
	f := newFixture(t, objects...)
	for _, o := range objects {
		putRealized(f.neutron, ownerOf(o), "10.20.0.0/24", "10.20.0.1")
	}

	if err := f.controller.fillIndex(f.ctx); err != nil {
		t.Fatalf("filling the index: %v", err)
	}
	for _, o := range objects {
		if err := f.sync(o); err != nil {
			t.Fatalf("sync %s: %v", o.Name, err)
		}
	}

	if got, want := f.neutron.Calls(), []string{"list networks", "list subnets"}; !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if w := f.writes(); len(w) != 0 {
		t.Errorf("API writes = %q, want none", w)
	}
}

// A network create that Neutron carried out but whose reply was lost is found by its
// description on the retry, not created twice.
func TestLostNetworkCreateReplyIsNotDuplicated(t *testing.T) {
	network := newNetwork("lost-reply", "10.21.0.0/24", "")
	f := newFixture(t, network)
	f.startLeading()
	f.neutron.LoseReply("create network", &neutron.Error{Op: "create network", Kind: neutron.KindUnavailable, Code: 502, Message: "Bad Gateway"})

	var reported *reportedError
	if err := f.sync(network); !errors.As(err, &reported) {
		t.Fatalf("first sync error = %v, want a reported, retryable error", err)
	}
	if err := f.sync(f.refresh("default", "lost-reply")); err != nil {
		t.Fatalf("retry: %v", err)
	}

	want := []string{"create network", "list networks", "tag network", "list subnets", "create subnet"}
	if got := f.neutron.Calls(); !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if n := len(f.neutron.Networks()); n != 1 {
		t.Errorf("Neutron holds %d networks, want 1", n)
	}
	wantReady("10.21.0.1")(t, f.refresh("default", "lost-reply"))
}

// A subnet create whose reply was lost makes the retry list the network's subnets instead
// of sending a create that Neutron would refuse as overlapping.
func TestLostSubnetCreateReplyIsNotRepeated(t *testing.T) {
	network := newNetwork("lost-subnet", "10.22.0.0/24", "")
	f := newFixture(t, network)
	f.startLeading()
	f.neutron.LoseReply("create subnet", &neutron.Error{Op: "create subnet", Kind: neutron.KindUnavailable, Message: "connection reset by peer"})

	var reported *reportedError
	if err := f.sync(network); !errors.As(err, &reported) {
		t.Fatalf("first sync error = %v, want a reported, retryable error", err)
	}
	if got := f.refresh("default", "lost-subnet"); got.Status.NetworkID == "" {
		t.Error("status.networkID not recorded while the subnet step failed")
	}
	if err := f.sync(f.refresh("default", "lost-subnet")); err != nil {
		t.Fatalf("retry: %v", err)
	}

	want := []string{"create network", "tag network", "create subnet", "list subnets"}
	if got := f.neutron.Calls(); !slices.Equal(got, want) {
		t.Errorf("Neutron calls = %q, want %q", got, want)
	}
	if n := len(f.neutron.Subnets()); n != 1 {
		t.Errorf("Neutron holds %d subnets, want 1", n)
	}
	wantReady("10.22.0.1")(t, f.refresh("default", "lost-subnet"))
}
