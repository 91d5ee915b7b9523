//go:build e2e

package node

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/samplecrd/network-controller/test/e2e"
)

// TestReleaseIsReproducible runs hack/release.sh (make release) twice on this tree and
// checks that the two runs made the same files with the same sums, the image's digest
// included, and that what they made is what docs/upgrading.md lists: the OCI archive, the
// image's digest, install.yaml with the CRDs first and the image pinned by that digest,
// the chart with image.digest set to it, and SHA256SUMS. The first run's release is the
// one TestUpgradeFromPreviousRelease then upgrades to (releaseUnderTest).
func TestReleaseIsReproducible(t *testing.T) {
	out, err := runRepo(t, time.Minute, nil, "hack/version.sh", "version")
	if err != nil {
		t.Fatalf("hack/version.sh version: %v\n%s", err, out)
	}
	version := strings.TrimSpace(out)
	var sums [2]string
	var dirs [2]string
	dirs[0], dirs[1] = currentReleaseDir(), t.TempDir()
	for i := range dirs {
		if out, err := runRepo(t, 20*time.Minute, []string{"RELEASE_DIR=" + dirs[i]}, "hack/release.sh"); err != nil {
			t.Fatalf("hack/release.sh, run %d: %v\n%s", i+1, err, out)
		}
		raw, err := os.ReadFile(filepath.Join(dirs[i], "SHA256SUMS"))
		if err != nil {
			t.Fatal(err)
		}
		sums[i] = string(raw)
	}
	t.Logf("SHA256SUMS:\n%s", sums[0])
	if sums[0] != sums[1] {
		t.Errorf("two releases of the same tree differ:\n%s\n%s", sums[0], sums[1])
	} else {
		releasedCurrent = sums[0]
	}

	entries, err := os.ReadDir(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		files = append(files, e.Name())
	}
	want := []string{"SHA256SUMS", "install.yaml", "network-controller-" + strings.TrimPrefix(version, "v") + ".tgz",
		"network-controller-" + version + ".digest", "network-controller-" + version + ".oci.tar"}
	if slices.Sort(files); !slices.Equal(files, want) {
		t.Errorf("the release holds %v, want %v", files, want)
	}

	image := releaseImage(t, dirs[0])
	repository, digest, found := strings.Cut(image, "@")
	if !found || !strings.HasPrefix(digest, "sha256:") {
		t.Fatalf("the release's image %q is not named by digest", image)
	}
	install, err := os.ReadFile(filepath.Join(dirs[0], "install.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := documentKinds(string(install))
	if len(kinds) < 3 || kinds[0] != "CustomResourceDefinition" || kinds[1] != "CustomResourceDefinition" {
		t.Errorf("install.yaml's kinds begin %v, want the two CRDs first", kinds[:min(3, len(kinds))])
	}
	if !strings.Contains(string(install), "image: "+image+"\n") {
		t.Errorf("install.yaml does not run the image %s", image)
	}
	rendered := e2e.Helm(t, "template", "network-controller", filepath.Join(dirs[0], want[2]), "--namespace", "network-controller")
	if !strings.Contains(rendered, "image: \""+repository+"@"+digest+"\"") && !strings.Contains(rendered, "image: "+image+"\n") {
		t.Errorf("the packaged chart does not render the image %s", image)
	}
}

// documentKinds lists the kind of each YAML document of a manifest, in order.
func documentKinds(manifest string) []string {
	var kinds []string
	for _, doc := range strings.Split(manifest, "\n---\n") {
		for _, line := range strings.Split(doc, "\n") {
			if kind, ok := strings.CutPrefix(line, "kind: "); ok {
				kinds = append(kinds, strings.TrimSpace(kind))
				break
			}
		}
	}
	return kinds
}
