package registry

import (
	"context"
	"strings"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
	neutronfake "github.com/samplecrd/network-controller/pkg/neutron/fake"
	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// TestRejectedCredentialsAreTriedOncePerContent: Keystone locks users out after failed
// attempts, so a refused password is not sent again until the Secret changes.
func TestRejectedCredentialsAreTriedOncePerContent(t *testing.T) {
	f := newRegistryFixture(t, nil)
	f.keystone.passwords["alice"] = "right"
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "wrong"))

	for _, name := range []string{"n1", "n2", "n3", "n1"} {
		_, err := f.resolve("team-a", name, "os")
		e := wantReason(t, err, samplecrdv1.ReasonPasswordRejected)
		if !strings.Contains(e.Message, "Secret team-a/os") || strings.Contains(e.Message, "wrong") {
			t.Errorf("message %q should name the Secret and not the password", e.Message)
		}
	}
	if n := f.keystone.attemptsOf("alice"); n != 1 {
		t.Fatalf("%d authentication attempts, want 1", n)
	}
	// A new version with the same content is still refused without asking Keystone.
	f.secrets.put("team-a", "os", "2", cloudsYAMLFor("alice", "wrong"))
	_, err := f.resolve("team-a", "n1", "os")
	wantReason(t, err, samplecrdv1.ReasonPasswordRejected)
	if n := f.keystone.attemptsOf("alice"); n != 1 {
		t.Fatalf("%d authentication attempts after an unchanged update, want 1", n)
	}

	f.secrets.put("team-a", "os", "3", cloudsYAMLFor("alice", "right"))
	if _, err := f.resolve("team-a", "n1", "os"); err != nil {
		t.Fatalf("after fixing the Secret: %v", err)
	}
}

func TestUnavailableKeystoneIsRetriedAfterBackoff(t *testing.T) {
	f := newRegistryFixture(t, nil)
	f.keystone.passwords["alice"] = "pw"
	f.keystone.down = true
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "pw"))

	for range 3 {
		_, err := f.resolve("team-a", "n", "os")
		if e := wantReason(t, err, samplecrdv1.ReasonKeystoneUnavailable); e.Terminal() {
			t.Fatal("an unavailable Keystone must be retried")
		}
	}
	if n := f.keystone.attemptsOf("alice"); n != 1 {
		t.Fatalf("%d attempts within the backoff, want 1", n)
	}
	f.keystone.down = false
	f.clock = f.clock.Add(6 * time.Second)
	if _, err := f.resolve("team-a", "n", "os"); err != nil {
		t.Fatalf("after Keystone came back: %v", err)
	}
}

func TestMissingSecretAndMissingReference(t *testing.T) {
	f := newRegistryFixture(t, nil)
	_, err := f.resolve("team-a", "n", "os")
	e := wantReason(t, err, samplecrdv1.ReasonCredentialsSecretNotFound)
	if !strings.Contains(e.Message, "Secret team-a/os does not exist") {
		t.Errorf("message %q", e.Message)
	}
	// Another namespace's Secret of the same name is never used.
	f.secrets.put("team-b", "os", "1", cloudsYAMLFor("bob", "b"))
	_, err = f.resolve("team-a", "n", "os")
	wantReason(t, err, samplecrdv1.ReasonCredentialsSecretNotFound)

	_, err = f.resolve("team-a", "n", "")
	wantReason(t, err, samplecrdv1.ReasonCredentialsRefRequired)
	if len(f.keystone.attempts) != 0 {
		t.Errorf("Keystone asked %d times", len(f.keystone.attempts))
	}
}

// refusingDriver is a project's Neutron reached with credentials Keystone stopped
// accepting after the client authenticated.
type refusingDriver struct {
	*neutronfake.Driver
	refused error
}

func (d *refusingDriver) Refused() error { return d.refused }

func TestCredentialsRefusedOnRenewalAreNotTriedAgain(t *testing.T) {
	f := newRegistryFixture(t, nil)
	driver := &refusingDriver{Driver: neutronfake.New()}
	connects := 0
	f.registry.connect = func(context.Context, neutronclient.Credentials) (neutron.Driver, neutron.Place, error) {
		connects++
		return driver, placeOf("project-a"), nil
	}
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "pw"))
	if _, err := f.resolve("team-a", "n", "os"); err != nil {
		t.Fatal(err)
	}
	driver.refused = &neutron.Error{Service: "keystone", Op: "list networks", Kind: neutron.KindRejected, Message: "Keystone refused to issue a new token: 401"}
	for range 2 {
		_, err := f.resolve("team-a", "n", "os")
		wantReason(t, err, samplecrdv1.ReasonPasswordRejected)
	}
	if connects != 1 {
		t.Errorf("%d authentications, want 1: refused credentials wait for the Secret to change", connects)
	}
	f.secrets.put("team-a", "os", "2", cloudsYAMLFor("alice", "new"))
	driver.refused = nil
	if _, err := f.resolve("team-a", "n", "os"); err != nil || connects != 2 {
		t.Errorf("after the Secret changed: err %v, %d authentications, want nil and 2", err, connects)
	}
}
