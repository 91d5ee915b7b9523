//go:build e2e

package node

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/test/e2e"
)

// TestUpgradeFromPreviousRelease installs the previous release (hack/version.sh previous:
// the commit where VERSION last changed to another version; 072492e stands in until there
// is one) from the artifacts hack/release.sh makes of it, on the node, and upgrades to the
// release of the build under test, as an operator does, twice:
//
//   - kubectl apply of install.yaml, then of the new install.yaml;
//   - helm install of the packaged chart, helm upgrade to the new one, and helm rollback.
//
// In between, the Networks of every form the previous release made (e2e.UpgradeNames) stay
// Ready with their Neutron network, and nothing the previous release made in Neutron goes.
func TestUpgradeFromPreviousRelease(t *testing.T) {
	previous := releaseOf(t, "--release")
	current := releaseUnderTest(t)
	t.Logf("from %s to %s", releaseImage(t, previous), releaseImage(t, current))

	ks := e2e.LocalKeystone(t)
	e2e.PublicNetwork(t)
	project, teamB := ks.ProjectID(t, e2e.MemberCloud), ks.ProjectID(t, e2e.TenantB)
	ns, sfx := e2e.NewNamespace(t), e2e.RandomSuffix(6)
	edge := ks.CreateRouterAs(t, e2e.MemberCloud, "edge-"+sfx)
	outside, _ := e2e.CreateOutsideNetwork(t, "outside-"+sfx, project, false, "10.88.9.0/24")
	// The Networks go while a controller still runs (their finalizer), then the controller.
	// The Retain Network's deletion would wait for a grant: its finalizer goes with the
	// namespace (e2e.NewNamespace) and its network last.
	var kept string
	t.Cleanup(func() {
		for _, name := range e2e.UpgradeNames {
			if name != "kept" {
				e2e.Kubectl(t, "delete", "network", name, "--namespace", ns, "--ignore-not-found", "--wait=true", "--timeout=2m")
			}
		}
		deployLocal(t, "remove", previous)
		if kept != "" {
			e2e.DeleteNeutronNetworkTree(t, kept)
		}
	})

	deployLocal(t, "remove")
	deployLocal(t, "release-yaml", previous)
	wantRunning(t, releaseImage(t, previous))
	for name, spec := range e2e.UpgradeSpecs(edge.Name, teamB, outside.ID) {
		e2e.CreateNetworkWithSpec(t, ns, name, spec)
	}
	before, rec := map[string]*samplecrdv1.Network{}, e2e.NeutronRecord{}
	for _, name := range e2e.UpgradeNames {
		before[name] = e2e.WaitMade(t, ns, name)
		rec.AddNetwork(t, before[name])
	}
	kept = before["kept"].Status.NetworkID
	t.Logf("the previous release made %d Networks; Neutron holds:\n%s", len(before), rec)

	t.Run("kubectl apply of install.yaml", func(t *testing.T) {
		deployLocal(t, "release-yaml", current)
		wantRunning(t, releaseImage(t, current))
		wantKept(t, ns, before, rec)
	})

	t.Run("helm upgrade and rollback", func(t *testing.T) {
		from := previous
		if !hasChart(t, previous) {
			// Before a release with a chart: the chart as the commit before the first
			// VERSION left it, the one unversioned chart users have.
			from = releaseOf(t, "--release", beforeVersions(t))
		}
		deployLocal(t, "remove", previous)
		// From install.yaml to Helm: the release takes over what kubectl applied. The CRDs
		// are this version's (install.yaml above), newer than those in the earlier chart's
		// crds/, which Helm would apply over them: --skip-crds, as anyone installing an
		// earlier chart over newer CRDs keeps them.
		deployLocal(t, "release-helm", from, "--wait", "--take-ownership", "--skip-crds")
		fromImage := releaseImage(t, from)
		if from != previous {
			// A chart before image.digest names the image by the tag the archive carries.
			fromImage = releaseTag(t, from)
		}
		wantRunning(t, fromImage)
		wantKept(t, ns, before, rec)

		var upgradeArgs []string
		if from != previous {
			// The steps CHANGELOG.md gives for a chart from before v0.1.0: its Deployment's
			// selector gains the release's name (a selector cannot change), and the CRDs,
			// installed from crds/ before, become the release's.
			e2e.MustKubectl(t, "delete", "deployment", "network-controller", "--namespace", controllerNamespace, "--wait=true")
			upgradeArgs = append(upgradeArgs, "--take-ownership")
		}
		deployLocal(t, append([]string{"release-helm", current, "--wait"}, upgradeArgs...)...)
		wantRunning(t, releaseImage(t, current))
		wantKept(t, ns, before, rec)
		for _, crd := range []string{"networks.samplecrd.k8s.io", "clusteridentities.samplecrd.k8s.io"} {
			if got := e2e.MustKubectl(t, "get", "crd", crd, "-o", "jsonpath={.metadata.annotations.helm\\.sh/resource-policy}"); got != "keep" {
				t.Errorf("CRD %s: helm.sh/resource-policy %q after the upgrade, want keep (the chart upgrades it and never deletes it)", crd, got)
			}
		}

		if from != previous {
			e2e.MustKubectl(t, "delete", "deployment", "network-controller", "--namespace", controllerNamespace, "--wait=true")
		}
		out := e2e.Helm(t, "rollback", "network-controller", "1", "--namespace", controllerNamespace, "--wait", "--timeout", "3m")
		t.Logf("helm rollback: %s", strings.TrimSpace(out))
		wantRunning(t, fromImage)
		wantKept(t, ns, before, rec)
		for _, crd := range []string{"networks.samplecrd.k8s.io", "clusteridentities.samplecrd.k8s.io"} {
			e2e.MustKubectl(t, "get", "crd", crd)
		}
	})
}

// releaseOf runs hack/build-previous.sh with args and returns the release folder it made.
func releaseOf(t *testing.T, args ...string) string {
	t.Helper()
	out, err := runRepo(t, 20*time.Minute, nil, "hack/build-previous.sh", args...)
	if err != nil {
		t.Fatalf("hack/build-previous.sh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[len(lines)-1]
}

// currentReleaseDir is where the release of the build under test goes.
func currentReleaseDir() string {
	return filepath.Join(e2e.RepoRoot, "_output", "upgrade", "release-current")
}

// releasedCurrent is the SHA256SUMS of the release TestReleaseIsReproducible made of the
// build under test in currentReleaseDir (and made again, the same), or "".
var releasedCurrent string

// releaseUnderTest releases the build under test into currentReleaseDir, unless this run's
// TestReleaseIsReproducible made it there already (and it is unchanged).
func releaseUnderTest(t *testing.T) string {
	t.Helper()
	dir := currentReleaseDir()
	if releasedCurrent != "" {
		if raw, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS")); err == nil && string(raw) == releasedCurrent {
			out, err := runRepo(t, time.Minute, nil, "bash", "-c", `cd "$1" && sha256sum --quiet -c SHA256SUMS`, "bash", dir)
			if err == nil {
				t.Logf("the release of the build under test TestReleaseIsReproducible made: %s", dir)
				return dir
			}
			t.Logf("%s no longer matches its SHA256SUMS (%v): releasing again\n%s", dir, err, out)
		}
	}
	if out, err := runRepo(t, 20*time.Minute, []string{"RELEASE_DIR=" + dir}, "hack/release.sh"); err != nil {
		t.Fatalf("hack/release.sh: %v\n%s", err, out)
	}
	return dir
}

// beforeVersions is the commit before the first one that added VERSION.
func beforeVersions(t *testing.T) string {
	t.Helper()
	out, err := runRepo(t, time.Minute, nil, "git", "log", "--diff-filter=A", "--format=%H", "--", "VERSION")
	lines := strings.Fields(out)
	if err != nil || len(lines) == 0 {
		t.Fatalf("no commit added VERSION (%v): %s", err, out)
	}
	return lines[len(lines)-1] + "^"
}

// releaseImage is the image reference by digest of the release in dir.
func releaseImage(t *testing.T, dir string) string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "network-controller-*.digest"))
	if len(matches) != 1 {
		t.Fatalf("%s: %d image digests, want 1", dir, len(matches))
	}
	raw, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(raw))
}

// releaseTag is the image reference by tag (the version) of the release in dir.
func releaseTag(t *testing.T, dir string) string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "network-controller-*.digest"))
	if len(matches) != 1 {
		t.Fatalf("%s: %d image digests, want 1", dir, len(matches))
	}
	version := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(matches[0]), "network-controller-"), ".digest")
	repository, _, _ := strings.Cut(releaseImage(t, dir), "@")
	return repository + ":" + version
}

// hasChart says whether the release in dir has a chart.
func hasChart(t *testing.T, dir string) bool {
	matches, _ := filepath.Glob(filepath.Join(dir, "network-controller-*.tgz"))
	return len(matches) == 1
}

// wantRunning waits until the controller's two Pods run image and are Ready.
func wantRunning(t *testing.T, image string) {
	t.Helper()
	e2e.Eventually(t, 3*time.Minute, time.Second, "2 replicas of "+image+" Ready", func() error {
		pods, err := readyPods(t, 2)
		if err != nil {
			return err
		}
		for _, p := range pods {
			if got := p.Spec.Containers[0].Image; got != image {
				return fmt.Errorf("Pod %s runs %s", p.Name, got)
			}
		}
		return nil
	})
}

// wantKept checks that every Network is Ready with the Neutron network it had before, and
// that none of what the previous release made in Neutron is gone. The controller running
// has grants: a Network whose power needs one it lacks (e2e.UpgradeGrants) is awaited
// until it says so (GrantMissing) beside Ready, which shows that controller reconciled it.
func wantKept(t *testing.T, ns string, before map[string]*samplecrdv1.Network, rec e2e.NeutronRecord) {
	t.Helper()
	for name, b := range before {
		n := e2e.WaitNetwork(t, ns, name, 3*time.Minute, "Ready with its network", func(n *samplecrdv1.Network) error {
			if !n.IsReady() || n.Status.NetworkID != b.Status.NetworkID {
				return fmt.Errorf("%s, network %q (had %q)", e2e.DescribeReady(n), n.Status.NetworkID, b.Status.NetworkID)
			}
			if _, needs := e2e.UpgradeGrants[name]; needs && meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionGrantMissing) == nil {
				return fmt.Errorf("%s without GrantMissing (needs %s)", e2e.DescribeReady(n), e2e.UpgradeGrants[name])
			}
			return nil
		})
		grant := ""
		if c := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionGrantMissing); c != nil {
			grant = ", GrantMissing: " + c.Message
		}
		t.Logf("%s: %s, network %s%s", name, e2e.DescribeReady(n), n.Status.NetworkID, grant)
	}
	if gone := rec.Gone(t); len(gone) > 0 {
		t.Errorf("Neutron lost %q", gone)
	}
}
