//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// neutronDNSDomain reads the dns_domain of a Neutron network as the cloud's admin; it fails
// the test on a Neutron without the dns-integration extension, which has none.
func neutronDNSDomain(t *testing.T, networkID string) string {
	t.Helper()
	domain := NeutronNetworkAttribute(t, networkID, "dns_domain")
	if domain == nil {
		t.Fatalf("Neutron network %s has no dns_domain: is the ML2 dns extension driver on (hack/local-neutron.sh)?", networkID)
	}
	return *domain
}

// waitDNSDomain waits until the Network is Ready for its latest generation with
// status.dnsDomain want, and its Neutron network has that dns_domain.
func waitDNSDomain(t *testing.T, ns, name, want string) *samplecrdv1.Network {
	t.Helper()
	n := WaitNetwork(t, ns, name, 60*time.Second, fmt.Sprintf("Ready with dnsDomain %q", want), func(n *samplecrdv1.Network) error {
		if !n.IsReady() || n.Status.ObservedGeneration != n.Generation || n.Status.DNSDomain != want {
			return fmt.Errorf("%s status.dnsDomain=%q", DescribeReady(n), n.Status.DNSDomain)
		}
		return nil
	})
	if got := neutronDNSDomain(t, n.Status.NetworkID); got != want {
		t.Errorf("Neutron network %s has dns_domain %q, want %q", n.Status.NetworkID, got, want)
	}
	return n
}

// longestDNSDomain is the longest dns_domain the CRD takes, and Neutron: 253 characters.
func longestDNSDomain() string {
	label63 := strings.Repeat("a", 63)
	return strings.Join([]string{label63, label63, label63, strings.Repeat("b", 60)}, ".") + "."
}

// The CRD's rules take a dns_domain exactly as Neutron takes it: a fully qualified name in
// lower case (Neutron lower-cases what it is sent), ending with a dot, labels of 1 to 63
// characters, no all-digit top-level label of several, at most 253 characters; and refuse
// it with import. No controller is involved.
func TestDNSDomainValidation(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	_, nets := Clients(t)
	ctx := Ctx(t, time.Minute)
	label63 := strings.Repeat("a", 63)
	longest := longestDNSDomain()
	tooLong := longest[:len(longest)-1] + "b."
	network := func(name, domain string) *samplecrdv1.Network {
		return &samplecrdv1.Network{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
			Spec: samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.0.0.0/24"}, DNSDomain: &domain}}
	}
	dryRun := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}

	for _, tc := range []struct {
		domain string
		want   []string
	}{
		{"Example.org.", []string{"spec.dnsDomain", "should match"}},
		{"example.org", []string{"spec.dnsDomain", "should match"}},
		{"", []string{"spec.dnsDomain", "should match"}},
		{"a_b.example.", []string{"spec.dnsDomain", "should match"}},
		{"-a.example.", []string{"spec.dnsDomain", "should match"}},
		{"example..org.", []string{"spec.dnsDomain", "should match"}},
		{label63 + "a.example.", []string{"spec.dnsDomain", "should match"}},
		{"example.123.", []string{"spec.dnsDomain", "must not end in a top-level label of digits only"}},
		{tooLong, []string{"spec.dnsDomain", "253"}},
	} {
		_, err := nets.SamplecrdV1().Networks(ns).Create(ctx, network("dns-invalid", tc.domain), dryRun)
		if err == nil {
			t.Errorf("dnsDomain %q was accepted", tc.domain)
			continue
		}
		for _, want := range tc.want {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("dnsDomain %q: error does not contain %q: %v", tc.domain, want, err)
			}
		}
	}
	if len(longest) != 253 || len(tooLong) != 254 {
		t.Fatalf("the longest dnsDomain has %d characters, the one too long %d; want 253 and 254", len(longest), len(tooLong))
	}
	for _, domain := range []string{"example.org.", "org.", "123.", "a-1.example.", "example.1a.", longest} {
		if _, err := nets.SamplecrdV1().Networks(ns).Create(ctx, network("dns-valid", domain), dryRun); err != nil {
			t.Errorf("dnsDomain %q (%d characters) was refused: %v", domain, len(domain), err)
		}
	}

	// Import refuses it, as every field but cidr and cloudCredentialsRef.
	_, err := nets.SamplecrdV1().Networks(ns).Create(ctx, &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: "dns-import", Namespace: ns},
		Spec: samplecrdv1.NetworkSpec{Import: &samplecrdv1.NetworkImport{NetworkName: "public"},
			DNSDomain: ptr.To("example.org.")},
	}, dryRun)
	if err == nil || !strings.Contains(err.Error(), "spec.dnsDomain: Forbidden: dnsDomain cannot be set together with import") {
		t.Errorf("import with dnsDomain: %v, want refused naming spec.dnsDomain", err)
	}
}

// spec.dnsDomain on the real Neutron (the ML2 dns extension driver), with the controller as
// the project's member user: set at the create, changed in place, put back by the Neutron
// resync after a change by hand, changed to the longest the CRD takes, and removed
// (Neutron's "" for none).
func TestDNSDomain(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	ns := NewNamespace(t)
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns}, Args: append(ks.ControllerArgs(MemberCloud), "-neutron-resync-period=2s"), Env: ks.ControllerEnv()})
	sfx := RandomSuffix(6)
	first, second := "a-"+sfx+".example.org.", "b-"+sfx+".example.org."

	// Set at the create.
	CreateNetworkWithSpec(t, ns, "dns", samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: "10.76.0.0/24"}, DNSDomain: &first})
	created := waitDNSDomain(t, ns, "dns", first)
	t.Logf("created with dnsDomain %s: network %s", first, created.Status.NetworkID)

	// Changed in place.
	PatchSpecField(t, ns, "dns", "dnsDomain", `"`+second+`"`)
	changed := waitDNSDomain(t, ns, "dns", second)
	if changed.Status.NetworkID != created.Status.NetworkID {
		t.Errorf("the change made network %s, want the same %s", changed.Status.NetworkID, created.Status.NetworkID)
	}
	WaitEvent(t, ns, "dns", "Normal", "NetworkUpdated", "dns domain from "+first+" to "+second, 30*time.Second)

	// Changed by hand in Neutron: the resync puts it back.
	ChangeByHandAndWaitRepair(t, ctrl, ns, "dns", created.Status.NetworkID, "dns_domain", "by-hand-"+sfx+".example.org.",
		func() string { return neutronDNSDomain(t, created.Status.NetworkID) }, second, "dns domain from by-hand-"+sfx+".example.org. to "+second)

	// The longest the CRD takes, Neutron takes.
	longest := longestDNSDomain()
	PatchSpecField(t, ns, "dns", "dnsDomain", `"`+longest+`"`)
	waitDNSDomain(t, ns, "dns", longest)

	// Removed: the network has none.
	PatchSpecField(t, ns, "dns", "dnsDomain", "null")
	removed := waitDNSDomain(t, ns, "dns", "")
	if removed.Status.NetworkID != created.Status.NetworkID {
		t.Errorf("the removal made network %s, want the same %s", removed.Status.NetworkID, created.Status.NetworkID)
	}
	WaitEvent(t, ns, "dns", "Normal", "NetworkUpdated", "dns domain from "+longest+" to none", 30*time.Second)

	DeleteNetwork(t, ns, "dns")
	WaitGone(t, ns, "dns", 60*time.Second)
}
