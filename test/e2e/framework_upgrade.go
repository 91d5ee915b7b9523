//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// CommitBeforeGrants is the last version before grant enforcement: every power of the own
// cloud was allowed to every namespace.
const CommitBeforeGrants = "072492e"

// BuildPrevious returns the controller binary of commit, built by hack/build-previous.sh
// (in a git worktree under _output/upgrade, cached there). A failed build fails the test,
// never skips it: an upgrade path nobody runs is one nobody knows works.
func BuildPrevious(t testing.TB, commit string) string {
	t.Helper()
	start := time.Now()
	stdout, stderr, err := runCommand(15*time.Minute, filepath.Join(RepoRoot, "hack", "build-previous.sh"), commit)
	if err != nil {
		t.Fatalf("hack/build-previous.sh %s: %v\n%s%s", commit, err, stdout, stderr)
	}
	binary := strings.TrimSpace(stdout)
	if _, err := os.Stat(binary); err != nil {
		t.Fatalf("hack/build-previous.sh %s printed %q, not a binary: %v\n%s", commit, binary, err, stderr)
	}
	t.Logf("controller of %s: %s, in %s (%s)", commit, binary, time.Since(start).Round(time.Millisecond), strings.TrimSpace(stderr))
	return binary
}

// PreviousControllerOptions are opts for a controller binary of an earlier commit. It
// knows every flag StartController gives but -keystone-refusals-configmap (added later),
// which an explicit Kubeconfig leaves out.
func PreviousControllerOptions(binary string, opts ControllerOptions) ControllerOptions {
	opts.Binary, opts.Kubeconfig = binary, Kubeconfig
	return opts
}

// NeutronRecord names Neutron resources (what -> API path), to tell later which are gone.
type NeutronRecord map[string]string

// AddNetwork records what Neutron holds for n, as the admin sees it: its network, its
// subnets, the RBAC policies on the network, the router interfaces on it and the router
// it owns.
func (r NeutronRecord) AddNetwork(t testing.TB, n *samplecrdv1.Network) {
	t.Helper()
	id := n.Status.NetworkID
	if id == "" {
		t.Fatalf("Network %s/%s has no network in its status", n.Namespace, n.Name)
	}
	r[n.Name+" network"] = "v2.0/networks/" + id
	for _, s := range n.Status.Subnets {
		r[n.Name+" subnet "+s.Name] = "v2.0/subnets/" + s.SubnetID
	}
	if n.Status.SubnetID != "" {
		r[n.Name+" subnet"] = "v2.0/subnets/" + n.Status.SubnetID
	}
	if rt := n.Status.Router; rt != nil && rt.Owned {
		r[n.Name+" router"] = "v2.0/routers/" + rt.RouterID
	}
	var doc struct {
		Policies []neutron.RBACPolicy `json:"rbac_policies"`
		Ports    []neutron.Port       `json:"ports"`
	}
	for _, path := range []string{
		"v2.0/rbac-policies?object_type=network&object_id=" + url.QueryEscape(id),
		"v2.0/ports?device_owner=" + url.QueryEscape(neutron.InterfaceOwner) + "&network_id=" + url.QueryEscape(id),
	} {
		if err := neutronList(path, &doc); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range doc.Policies {
		r[n.Name+" share with "+p.TargetProject] = "v2.0/rbac-policies/" + p.ID
	}
	for _, p := range doc.Ports {
		r[n.Name+" interface on router "+p.DeviceID] = "v2.0/ports/" + p.ID
	}
}

// Gone returns, sorted, what of the record Neutron no longer has.
func (r NeutronRecord) Gone(t testing.TB) []string {
	t.Helper()
	var gone []string
	for what, path := range r {
		code, body, err := neutronDo(http.MethodGet, path, nil)
		if err != nil || (code != http.StatusOK && code != http.StatusNotFound) {
			t.Fatalf("GET %s (%s): %d %v %s", path, what, code, err, body)
		}
		if code == http.StatusNotFound {
			gone = append(gone, what)
		}
	}
	slices.Sort(gone)
	return gone
}

// String lists the record, one resource a line, sorted.
func (r NeutronRecord) String() string {
	var lines []string
	for what, path := range r {
		lines = append(lines, fmt.Sprintf("  %s: %s", what, path))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
