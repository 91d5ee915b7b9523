//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// OwnServer is a server of one test: one more neutron-server, Keystone or kube-apiserver
// on the shared database (or etcd), started by the `serve` command of its hack/ script on
// a port of its own. A test that stops, restarts or delays a server, or counts the
// requests one logs, does it to its own, so that the tests beside it keep theirs. Stopped
// (SIGTERM to its process group, SIGKILL after 20 s) at the end of the test.
type OwnServer struct {
	Name string
	// Address is 127.0.0.1:<port>.
	Address string
	// Log is where the server writes its log (Keystone: its request log); its standard
	// output and error go to Log + ".out".
	Log string

	t     testing.TB
	argv  []string
	ready func() error
	cmd   *exec.Cmd
	done  chan struct{}
}

// startOwnServer runs argv (a hack/ script and its arguments) and waits until ready
// returns nil.
func startOwnServer(t testing.TB, name, address, log string, ready func() error, argv ...string) *OwnServer {
	t.Helper()
	s := &OwnServer{Name: name, Address: address, Log: log, t: t, argv: argv, ready: ready}
	t.Cleanup(func() {
		if t.Failed() {
			for _, path := range []string{s.Log, s.Log + ".out"} {
				if raw, err := os.ReadFile(path); err == nil {
					t.Logf("--- last lines of %s's %s ---\n%s", name, path, LastLines(string(raw), 30))
				}
			}
		}
		s.Stop()
	})
	s.Start()
	return s
}

// Start starts the server (again, after Stop) on its address and waits until it answers.
func (s *OwnServer) Start() {
	s.t.Helper()
	if err := s.start(); err != nil {
		s.t.Fatal(err)
	}
}

// start is Start for any goroutine: it returns what went wrong.
func (s *OwnServer) start() error {
	started := time.Now()
	s.cmd = exec.Command(s.argv[0], s.argv[1:]...)
	s.cmd.Dir = RepoRoot
	// Its own process group, for Stop; and SIGTERM when the test binary dies before its
	// cleanups ran (a killed go test), so that no server outlives the run.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	out, err := os.OpenFile(s.Log+".out", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	s.cmd.Stdout, s.cmd.Stderr = out, out
	err = s.cmd.Start()
	out.Close()
	if err != nil {
		return fmt.Errorf("starting %s: %w", s.Name, err)
	}
	s.done = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) { _ = cmd.Wait(); close(done) }(s.cmd, s.done)
	deadline := time.Now().Add(90 * time.Second)
	for {
		select {
		case <-s.done:
			raw, _ := os.ReadFile(s.Log + ".out")
			return fmt.Errorf("%s exited during its start:\n%s", s.Name, LastLines(string(raw), 20))
		default:
		}
		err := s.ready()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			s.Stop()
			return fmt.Errorf("%s on %s did not answer within 90 s: %w", s.Name, s.Address, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	s.t.Logf("%s is up on %s (%s to start, pid %d)", s.Name, s.Address, time.Since(started).Round(100*time.Millisecond), s.cmd.Process.Pid)
	return nil
}

// Stop stops the server, if it runs, and waits until it has exited.
func (s *OwnServer) Stop() {
	if s.cmd == nil {
		return
	}
	select {
	case <-s.done:
		return
	default:
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		s.t.Logf("%s (pid %d) did not stop within 20 s of SIGTERM; killing it", s.Name, s.cmd.Process.Pid)
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
}

// Restart stops the server, waits down, and starts it again on the same address. Any
// goroutine may call it.
func (s *OwnServer) Restart(down time.Duration) error {
	s.Stop()
	time.Sleep(down)
	return s.start()
}

func answers(url string) func() error {
	return func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			return fmt.Errorf("GET %s: %s", url, resp.Status)
		}
		return nil
	}
}

func port(address string) string {
	_, p, _ := strings.Cut(address, ":")
	return p
}

// OwnNeutron starts a noauth neutron-server of the test's own on the shared database:
// its endpoint is "http://" + Address + "/".
func OwnNeutron(t testing.TB) *OwnServer {
	t.Helper()
	address := freeAddress(t)
	log := filepath.Join(t.TempDir(), "neutron-server.log")
	return startOwnServer(t, "the test's neutron-server", address, log, answers("http://"+address+"/v2.0/networks"),
		filepath.Join(RepoRoot, "hack", "local-neutron.sh"), "serve", port(address), log)
}

// OwnKeystone starts a Keystone of the test's own on the shared database and keys, and
// returns k with its AuthURL, AccessLog and clouds.yaml (every auth_url) moved to it.
func OwnKeystone(t testing.TB, k Keystone) (Keystone, *OwnServer) {
	t.Helper()
	address := freeAddress(t)
	log := filepath.Join(t.TempDir(), "keystone-access.log")
	s := startOwnServer(t, "the test's Keystone", address, log, answers("http://"+address+"/v3"),
		filepath.Join(RepoRoot, "hack", "local-keystone.sh"), "serve", port(address), log)
	// Its request log is written a moment after the first answer: callers read it at once.
	Eventually(t, 30*time.Second, 100*time.Millisecond, "the test's Keystone's request log", func() error {
		_, err := os.Stat(log)
		return err
	})
	authURL := "http://" + address + "/v3"
	raw, err := os.ReadFile(k.CloudsYAML)
	if err != nil {
		t.Fatal(err)
	}
	k.CloudsYAML = WriteFile(t, "clouds.yaml", strings.ReplaceAll(string(raw), "auth_url: "+k.AuthURL, "auth_url: "+authURL))
	k.AuthURL, k.AccessLog = authURL, log
	return k, s
}

// OwnAPIServer starts a kube-apiserver of the test's own on the shared etcd and returns
// it with an admin kubeconfig for it. env is given to hack/local-kube.sh, e.g.
// LOCAL_KUBE_SHARDED_WATCH=false.
func OwnAPIServer(t testing.TB, env ...string) (*OwnServer, string) {
	t.Helper()
	address := freeAddress(t)
	cfg, err := clientcmd.LoadFromFile(Kubeconfig)
	if err != nil {
		t.Fatalf("loading %s: %v", Kubeconfig, err)
	}
	for _, c := range cfg.Clusters {
		c.Server = "https://" + address
	}
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, kubeconfig); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "kube-apiserver.log")
	ready := func() error {
		rc, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
		if err != nil {
			return err
		}
		rc.Timeout = 3 * time.Second
		client, err := kubernetes.NewForConfig(rc)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		body, err := client.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
		if err != nil {
			return err
		}
		if string(body) != "ok" {
			return fmt.Errorf("/readyz: %q", body)
		}
		return nil
	}
	argv := append(append([]string{"env"}, env...), filepath.Join(RepoRoot, "hack", "local-kube.sh"), "serve-apiserver", port(address))
	s := startOwnServer(t, "the test's kube-apiserver", address, log, ready, argv...)
	return s, kubeconfig
}
