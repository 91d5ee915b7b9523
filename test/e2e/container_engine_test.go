//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The container image under test: hack/e2e.sh builds it in the background while the
// other tests run and names it in these variables; without them the test builds it.
const (
	envImage       = "E2E_IMAGE"            // image tag
	envImageEngine = "E2E_IMAGE_ENGINE"     // docker or podman
	envImageDone   = "E2E_IMAGE_BUILD_DONE" // file holding the build's exit code once it ended
	envImageLog    = "E2E_IMAGE_BUILD_LOG"  // the build's output
)

// containerEngine runs docker or podman with the settings this machine needs.
type containerEngine struct {
	name   string
	global []string // flags before the subcommand
	run    []string // extra flags of run
}

// newContainerEngine returns the engine hack/image.sh builds with; podman gets runc (crun
// fails on hosts with hybrid cgroups) and ulimits at or below the host's (podman's
// defaults exceed what a process without CAP_SYS_RESOURCE may set).
func newContainerEngine(t *testing.T, name string) *containerEngine {
	t.Helper()
	switch name {
	case "docker":
		return &containerEngine{name: name}
	case "podman":
		e := &containerEngine{name: name, run: []string{"--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024",
			// Kubernetes' readOnlyRootFilesystem gives no writable /tmp; podman's --read-only
			// would add tmpfs mounts on /tmp, /var/tmp and /run.
			"--read-only-tmpfs=false",
			// A log file: the default, journald, may not run on the machine.
			"--log-driver", "k8s-file"}}
		if runc, err := exec.LookPath("runc"); err == nil {
			e.global = []string{"--runtime", runc}
		}
		return e
	default:
		t.Fatalf("the container test runs images with docker or podman; hack/image.sh picked %q", name)
		return nil
	}
}

// cmd runs the engine with args and returns stdout; stderr goes into the error.
func (e *containerEngine) cmd(timeout time.Duration, args ...string) (string, error) {
	stdout, stderr, err := runCommand(timeout, e.name, append(slices.Clone(e.global), args...)...)
	if err != nil {
		return stdout, fmt.Errorf("%s %s: %w: %s", e.name, strings.Join(args, " "), err, strings.TrimSpace(stderr))
	}
	return stdout, nil
}

// mustCmd is cmd that fails the test on error.
func (e *containerEngine) mustCmd(t *testing.T, timeout time.Duration, args ...string) string {
	t.Helper()
	out, err := e.cmd(timeout, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// controllerImage returns the engine and the image of the controller built from this
// tree's tracked files: the one hack/e2e.sh is building (waiting for it), or one built
// here with hack/image.sh and removed at the end of the test.
func controllerImage(t *testing.T) (*containerEngine, string) {
	t.Helper()
	if image := os.Getenv(envImage); image != "" {
		done, logPath := os.Getenv(envImageDone), os.Getenv(envImageLog)
		start := time.Now()
		var code []byte
		Eventually(t, 20*time.Minute, time.Second, "hack/e2e.sh's build of "+image, func() error {
			var err error
			code, err = os.ReadFile(done)
			return err
		})
		if waited := time.Since(start); waited > time.Second {
			t.Logf("waited %s for the image build", waited.Round(time.Second))
		}
		buildLog, _ := os.ReadFile(logPath)
		if strings.TrimSpace(string(code)) != "0" {
			t.Fatalf("building %s failed (exit %s):\n%s", image, strings.TrimSpace(string(code)), LastLines(string(buildLog), 40))
		}
		t.Logf("image build (%s):\n%s", logPath, LastLines(string(buildLog), 3))
		return newContainerEngine(t, os.Getenv(envImageEngine)), image
	}

	engineName, stderr, err := runCommand(10*time.Minute, "hack/image.sh", "engine")
	if err != nil {
		t.Fatalf("hack/image.sh engine: %v\n%s", err, stderr)
	}
	engine := newContainerEngine(t, strings.TrimSpace(engineName))
	image := "localhost/network-controller:e2e-" + RandomSuffix(8)
	t.Cleanup(func() {
		if _, err := engine.cmd(time.Minute, "rmi", image); err != nil {
			t.Logf("cleanup: %v", err)
		}
		if stdout, stderr, err := runCommand(time.Minute, "hack/base-images.sh", engine.name, "remove"); err != nil {
			t.Logf("cleanup: hack/base-images.sh remove: %v\n%s%s", err, stdout, stderr)
		}
	})
	start := time.Now()
	stdout, stderr, err := runCommand(20*time.Minute, "env", "IMAGE="+image, "IMAGE_ENGINE="+engine.name,
		"IMAGE_CONTEXT=tracked", "BASE_IMAGES=local", "hack/image.sh")
	out := stdout + stderr
	if err != nil {
		t.Fatalf("hack/image.sh: %v\n%s", err, LastLines(out, 40))
	}
	t.Logf("built %s in %s:\n%s", image, time.Since(start).Round(time.Second), LastLines(out, 3))
	return engine, image
}

// containerExitCode returns the exit code the engine recorded for a stopped container.
func (e *containerEngine) containerExitCode(t *testing.T, name string) int {
	t.Helper()
	out := strings.TrimSpace(e.mustCmd(t, time.Minute, "inspect", "--format", "{{.State.ExitCode}}", name))
	code, err := strconv.Atoi(out)
	if err != nil {
		t.Fatalf("exit code of container %s: %q", name, out)
	}
	return code
}

// logs returns what the container wrote to stdout and stderr (the engine replays each on
// its own stream).
func (e *containerEngine) logs(name string) string {
	stdout, stderr, err := runCommand(time.Minute, e.name, append(slices.Clone(e.global), "logs", name)...)
	if err != nil {
		return fmt.Sprintf("%s%s<%s logs %s: %v>", stdout, stderr, e.name, name, err)
	}
	return stdout + stderr
}
