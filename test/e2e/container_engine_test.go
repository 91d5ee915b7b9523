//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c := exec.CommandContext(ctx, e.name, append(append([]string{}, e.global...), args...)...)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%s %s: %w: %s", e.name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
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

	engineName, err := exec.Command(filepath.Join(RepoRoot, "hack", "image.sh"), "engine").Output()
	if err != nil {
		t.Fatalf("hack/image.sh engine: %v", err)
	}
	engine := newContainerEngine(t, strings.TrimSpace(string(engineName)))
	image := "localhost/network-controller:e2e-" + RandomSuffix(8)
	build := exec.Command(filepath.Join(RepoRoot, "hack", "image.sh"))
	build.Dir = RepoRoot
	build.Env = append(os.Environ(), "IMAGE="+image, "IMAGE_ENGINE="+engine.name, "IMAGE_CONTEXT=tracked", "BASE_IMAGES=local")
	t.Cleanup(func() {
		if _, err := engine.cmd(time.Minute, "rmi", image); err != nil {
			t.Logf("cleanup: %v", err)
		}
		rm := exec.Command(filepath.Join(RepoRoot, "hack", "base-images.sh"), engine.name, "remove")
		if out, err := rm.CombinedOutput(); err != nil {
			t.Logf("cleanup: hack/base-images.sh remove: %v\n%s", err, out)
		}
	})
	start := time.Now()
	out, err := build.CombinedOutput()
	if err != nil {
		t.Fatalf("hack/image.sh: %v\n%s", err, LastLines(string(out), 40))
	}
	t.Logf("built %s in %s:\n%s", image, time.Since(start).Round(time.Second), LastLines(string(out), 3))
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
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, e.name, append(append([]string{}, e.global...), "logs", name)...).CombinedOutput()
	if err != nil {
		return fmt.Sprintf("%s<%s logs %s: %v>", out, e.name, name, err)
	}
	return string(out)
}
