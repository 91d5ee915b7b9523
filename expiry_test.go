package main

import (
	"testing"
	"time"

	"github.com/samplecrd/network-controller/pkg/networktest"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Time alone brings credentials into the warning: the check queues the Networks whose
// condition is due to change, and only those; once written, none.
func TestExpiryCheckQueuesNetworksWhoseWarningIsDue(t *testing.T) {
	network := networktest.NewNetwork("web", "10.30.0.0/24", "")
	f := newFixtureWithConfig(t, func(c *Config) { c.ExpiryWarning = 7 * 24 * time.Hour }, network)
	f.startLeading()
	if err := f.sync(network); err != nil {
		t.Fatal(err)
	}
	f.Refresh(network.Namespace, network.Name)
	if n := f.controller.queueExpiryChanges(); n != 0 {
		t.Fatalf("queued %d Networks whose credentials do not expire", n)
	}

	// Days pass: the credentials now expire within the window.
	f.Neutron.SetCredentialExpiry(&neutron.CredentialExpiry{What: "password of Keystone user k8s", Kind: neutron.ExpiryPassword, At: time.Now().Add(6 * 24 * time.Hour)})
	if n := f.controller.queueExpiryChanges(); n != 1 {
		t.Fatalf("queued %d Networks, want the one whose warning is due", n)
	}
	if err := f.sync(network); err != nil {
		t.Fatal(err)
	}
	f.Refresh(network.Namespace, network.Name)
	if n := f.controller.queueExpiryChanges(); n != 0 {
		t.Errorf("queued %d Networks after the warning was written", n)
	}
}
