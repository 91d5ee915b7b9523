//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"maps"
	"net"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// saMountPath is where the kubelet mounts the ServiceAccount token and where client-go's
// in-cluster configuration reads it.
const saMountPath = "/var/run/secrets/kubernetes.io/serviceaccount"

// TestContainerImage runs the image built from the Dockerfile (from the tracked files of
// this tree) the way deploy/base/40-deployment.yaml's pod runs it: its user and group, a
// read-only root filesystem, no capabilities, no new privileges, the engine's default
// seccomp profile, its memory limit, its environment and arguments, and the
// ServiceAccount's token and the apiserver CA mounted where the kubelet mounts them, with
// KUBERNETES_SERVICE_HOST/_PORT set, and a clouds.yaml for the local Keystone's member-role
// user mounted where the pod mounts its Secret, with OS_CLOUD. The host network stands in for the pod network, so
// the container reaches the local apiserver and Neutron on loopback. Then a Network
// becomes Ready and is deleted, the probes answer on the Deployment's probe port, a stop
// with the pod's grace period ends in a clean exit that released the Lease, and the
// container wrote nothing to its root filesystem. The Deployment's arguments get one more,
// -namespace for the test's namespace, so that the tests beside it keep their Networks.
func TestContainerImage(t *testing.T) {
	t.Parallel()
	applyDeployRBAC(t)
	d := readDeployment(t)
	spec := d.Spec.Template.Spec
	c := spec.Containers[0]
	engine, image := controllerImage(t)

	env := containerEnv(t, d)
	ns := NewNamespace(t)
	args := append(expandArgs(c.Args, env), "-namespace="+ns)
	args, env, mounts := neutronForContainer(t, args, env, int(*spec.SecurityContext.FSGroup))
	// Host network: ":port" would listen on every interface of this machine; the pod's
	// ports stay, on loopback only.
	for i, a := range args {
		for _, flag := range []string{"-metrics-bind-address=:", "-health-probe-bind-address=:"} {
			if strings.HasPrefix(a, flag) {
				args[i] = strings.Replace(a, "=:", "=127.0.0.1:", 1)
			}
		}
	}
	healthPort := probePort(t, c, c.ReadinessProbe)
	if livenessPort := probePort(t, c, c.LivenessProbe); livenessPort != healthPort {
		t.Fatalf("liveness probe port %d differs from readiness probe port %d", livenessPort, healthPort)
	}
	healthURL := fmt.Sprintf("http://127.0.0.1:%d", healthPort)
	for _, a := range args {
		if addr, ok := strings.CutPrefix(a, "-"); ok && strings.Contains(addr, "-bind-address=127.0.0.1:") {
			_, hostPort, _ := strings.Cut(addr, "=")
			if l, err := net.Listen("tcp", hostPort); err != nil {
				t.Fatalf("%s is taken on this machine, and the container shares the host network: %v", hostPort, err)
			} else {
				l.Close()
			}
		}
	}

	// The ServiceAccount folder as the kubelet projects it (files group-owned by fsGroup).
	kube, _ := Clients(t)
	cfg := AdminConfig(t)
	server, err := url.Parse(cfg.Host)
	if err != nil {
		t.Fatalf("parsing the apiserver URL %q: %v", cfg.Host, err)
	}
	ca := cfg.CAData
	if len(ca) == 0 {
		if ca, err = os.ReadFile(cfg.CAFile); err != nil {
			t.Fatalf("reading the apiserver CA: %v", err)
		}
	}
	token, _, err := KubectlAs(t, Kubeconfig, "create", "token", spec.ServiceAccountName, "-n", d.Namespace, "--duration=1h")
	if err != nil {
		t.Fatalf("kubectl create token %s: %v", spec.ServiceAccountName, err)
	}
	token = strings.TrimSpace(token)
	saDir := t.TempDir()
	fsGroup := int(*spec.SecurityContext.FSGroup)
	for name, content := range map[string][]byte{"token": []byte(token), "ca.crt": ca, "namespace": []byte(d.Namespace)} {
		p := filepath.Join(saDir, name)
		if err := os.WriteFile(p, content, 0o440); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, 0, fsGroup); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chown(saDir, 0, fsGroup); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(saDir, 0o750); err != nil {
		t.Fatal(err)
	}
	mounts = append(mounts, saDir+":"+saMountPath+":ro")
	env["KUBERNETES_SERVICE_HOST"] = server.Hostname()
	env["KUBERNETES_SERVICE_PORT"] = server.Port()

	psc, sc := spec.SecurityContext, c.SecurityContext
	if psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault ||
		sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
		sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
		!slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) || len(sc.Capabilities.Add) > 0 {
		t.Fatalf("the Deployment's security settings changed; update this test to run the container with them: pod %+v, container %+v", psc, sc)
	}
	name := "network-controller-e2e-" + RandomSuffix(8)
	run := []string{"run", "--detach", "--name", name,
		"--user", fmt.Sprintf("%d:%d", *psc.RunAsUser, *psc.RunAsGroup),
		"--read-only", "--cap-drop=ALL", "--security-opt", "no-new-privileges",
		// No seccomp option: the engine's default profile, as RuntimeDefault.
		"--network", "host",
		"--memory", strconv.FormatInt(c.Resources.Limits.Memory().Value(), 10),
	}
	run = append(run, engine.run...)
	for _, m := range mounts {
		run = append(run, "--volume", m)
	}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		run = append(run, "--env", k+"="+env[k])
	}
	run = append(append(run, image), args...)

	kubeSystem, err := kube.CoreV1().Namespaces().Get(Ctx(t, 30*time.Second), metav1.NamespaceSystem, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	clusterID := string(kubeSystem.UID) // the Deployment leaves -cluster-id at its default
	const leaseName = "network-controller"
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = kube.CoordinationV1().Leases(d.Namespace).Delete(ctx, leaseName, metav1.DeleteOptions{})
	})

	t.Logf("running: %s %s", engine.name, strings.Join(append(append([]string{}, engine.global...), run...), " "))
	engine.mustCmd(t, 2*time.Minute, run...)
	t.Cleanup(func() {
		if t.Failed() {
			logs := engine.logs(name)
			t.Logf("--- container log ---\n%s", LastLines(logs, 60))
		}
		if _, err := engine.cmd(2*time.Minute, "rm", "--force", name); err != nil {
			t.Logf("cleanup: %v", err)
		}
	})
	running := func() error {
		state := strings.TrimSpace(engine.mustCmd(t, time.Minute, "inspect", "--format", "{{.State.Status}}", name))
		if state != "running" {
			logs := engine.logs(name)
			t.Fatalf("container %s is %s:\n%s", name, state, LastLines(logs, 40))
		}
		return nil
	}

	// The process runs as the pod would: user, capabilities, no_new_privs, seccomp.
	_ = running()
	pid := strings.TrimSpace(engine.mustCmd(t, time.Minute, "inspect", "--format", "{{.State.Pid}}", name))
	status, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		t.Fatalf("reading the container process's status: %v", err)
	}
	fields := map[string]string{}
	for _, line := range strings.Split(string(status), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			fields[k] = strings.TrimSpace(v)
		}
	}
	for field, want := range map[string]string{
		"Uid":        fmt.Sprintf("%d\t%[1]d\t%[1]d\t%[1]d", *psc.RunAsUser),
		"Gid":        fmt.Sprintf("%d\t%[1]d\t%[1]d\t%[1]d", *psc.RunAsGroup),
		"CapEff":     "0000000000000000",
		"CapPrm":     "0000000000000000",
		"CapBnd":     "0000000000000000",
		"NoNewPrivs": "1",
		"Seccomp":    "2", // a filter is installed
	} {
		if fields[field] != want {
			t.Errorf("container process %s: %q, want %q", field, fields[field], want)
		}
	}

	Eventually(t, 2*time.Minute, 250*time.Millisecond, "the container's readiness probe on port "+strconv.Itoa(healthPort), func() error {
		_ = running()
		return ExpectStatus(healthURL+c.ReadinessProbe.HTTPGet.Path, 200)
	})
	if err := ExpectStatus(healthURL+c.LivenessProbe.HTTPGet.Path, 200); err != nil {
		t.Errorf("liveness probe: %v", err)
	}
	if holder, _, err := leaseHolder(t, d.Namespace, leaseName); err != nil || holder == "" {
		t.Errorf("Lease %s/%s holder = %q (%v), want the container", d.Namespace, leaseName, holder, err)
	}

	// Metrics over HTTPS, as the Deployment serves them: only for the metrics-reader.
	if !slices.Contains(args, "-metrics-secure=true") {
		t.Fatalf("the Deployment no longer serves -metrics-secure=true metrics (args %q); update this test", args)
	}
	reader, other := ScraperTokens(t, ns)
	metricsURL := "https://127.0.0.1:" + metricsPort(t, args) + "/metrics"
	scraped := CheckSecureMetrics(t, metricsURL, reader, other)
	// The Dockerfile stamps the build as make build does.
	if info := `network_controller_build_info{commit="` + ControllerCommit + `",go_version="`; !strings.Contains(scraped, info) ||
		!strings.Contains(scraped, `version="`+ControllerVersion+`"} 1`) {
		t.Errorf("the image names no build %s (%s) in network_controller_build_info:\n%s", ControllerVersion, ControllerCommit,
			regexp.MustCompile(`(?m)^network_controller_build_info.*$`).FindString(scraped))
	}
	if !strings.Contains(scraped, "network_controller_leader 1") {
		t.Errorf("the container leads but its metrics do not say so:\n%s", LastLines(scraped, 10))
	}
	// It authenticated with Keystone once at startup.
	if m := regexp.MustCompile(`(?m)^network_controller_keystone_token_requests_total\{outcome="ok"\} (\d+)$`).FindStringSubmatch(scraped); m == nil || m[1] == "0" {
		t.Errorf("network_controller_keystone_token_requests_total{outcome=\"ok\"} = %v, want at least 1", m)
	}

	n := CreateNetwork(t, ns, "image-net", "10.76.0.0/24", "")
	owner := OwnerOf(clusterID, n)
	t.Cleanup(func() {
		nets, _, err := NeutronOf(t, owner)
		if err != nil {
			t.Logf("cleanup: %v", err)
		}
		for _, leftover := range nets {
			DeleteNeutronNetworkTree(t, leftover.ID)
		}
	})
	ready := WaitReady(t, ns, n.Name, 2*time.Minute)
	if ready.Status.Gateway != "10.76.0.1" {
		t.Errorf("status.gateway = %q, want 10.76.0.1", ready.Status.Gateway)
	}
	nets, _, err := NeutronOf(t, owner)
	if err != nil || len(nets) != 1 || nets[0].ID != ready.Status.NetworkID {
		t.Errorf("Neutron networks of %s = %+v (%v), want only %s", owner.ResourceName(), nets, err, ready.Status.NetworkID)
	}
	DeleteNetwork(t, ns, n.Name)
	WaitGone(t, ns, n.Name, time.Minute)
	WaitNeutronEmpty(t, owner, 30*time.Second)
	_ = running()

	// Stop as the kubelet does: SIGTERM, SIGKILL after the grace period. Exit code 0 means
	// the controller ended by itself (a SIGKILL would be 137).
	grace := *spec.TerminationGracePeriodSeconds
	stopStart := time.Now()
	engine.mustCmd(t, time.Duration(grace)*time.Second+time.Minute, "stop", "--time", strconv.FormatInt(grace, 10), name)
	code := engine.containerExitCode(t, name)
	t.Logf("stopped with a %d s grace period in %s, exit code %d", grace, time.Since(stopStart).Round(time.Millisecond), code)
	if code != 0 {
		t.Errorf("container exit code after SIGTERM with a %d s grace period = %d, want 0", grace, code)
	}
	if holder, _, err := leaseHolder(t, d.Namespace, leaseName); err != nil || holder != "" {
		t.Errorf("Lease %s/%s holder after the stop = %q (%v), want released", d.Namespace, leaseName, holder, err)
	}

	// Nothing written to the root filesystem: the only differences are the mount points and
	// the /etc files (hosts, resolv.conf) the engine itself creates.
	allowed := map[string]bool{"/etc": true}
	for _, m := range mounts {
		dest := strings.Split(m, ":")[1]
		for p := dest; p != "/"; p = path.Dir(p) {
			allowed[p] = true
		}
	}
	diff := strings.TrimSpace(engine.mustCmd(t, time.Minute, "diff", name))
	t.Logf("%s diff (mount points and engine-made /etc files expected):\n%s", engine.name, diff)
	for _, line := range strings.Split(diff, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 2 && allowed[fields[1]] && (fields[0] == "A" || fields[1] == "/etc") {
			continue
		}
		if line != "" {
			t.Errorf("the container changed its root filesystem: %s", line)
		}
	}

	logs := engine.logs(name)
	if lines, problems := jsonLogProblems(logs); lines == 0 || len(problems) > 0 {
		t.Errorf("container log: %d lines, not JSON: %q", lines, problems)
	}
	for _, want := range []string{"inClusterConfig", `"Connected"`, `"Released leadership"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("container log lacks %s", want)
		}
	}
	if strings.Contains(strings.ToLower(logs), "forbidden") {
		t.Errorf("container log mentions forbidden:\n%s", logs)
	}
}

// neutronForContainer gives the container the Deployment's Neutron access: -os-cloud with
// $OS_CLOUD, and $OS_CLIENT_CONFIG_FILE in the folder where the pod mounts the clouds.yaml
// Secret. The file holds the local Keystone's member-role user under the Deployment's cloud
// name, readable through the pod's fsGroup as the kubelet would project the Secret.
func neutronForContainer(t *testing.T, args []string, env map[string]string, fsGroup int) ([]string, map[string]string, []string) {
	t.Helper()
	k := LocalKeystone(t)
	cloud, file := env["OS_CLOUD"], env["OS_CLIENT_CONFIG_FILE"]
	if cloud == "" || file == "" || !slices.Contains(args, "-os-cloud="+cloud) {
		t.Fatalf("the Deployment no longer takes -os-cloud=$(OS_CLOUD) with OS_CLIENT_CONFIG_FILE (args %q); update this test", args)
	}
	raw, err := os.ReadFile(k.CloudsYAML)
	if err != nil {
		t.Fatalf("reading the local Keystone's clouds.yaml: %v", err)
	}
	var local struct {
		Clouds map[string]any `json:"clouds"`
	}
	if err := yaml.Unmarshal(raw, &local); err != nil || local.Clouds[MemberCloud] == nil {
		t.Fatalf("the local clouds.yaml has no cloud %q (%v)", MemberCloud, err)
	}
	secret, err := yaml.Marshal(map[string]any{"clouds": map[string]any{cloud: local.Clouds[MemberCloud]}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, path.Base(file))
	if err := os.WriteFile(p, secret, 0o440); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{p, dir} {
		if err := os.Chown(f, 0, fsGroup); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	return args, env, []string{dir + ":" + path.Dir(file) + ":ro"}
}

// probePort resolves a probe's HTTP port (a name of the container's ports or a number).
func probePort(t *testing.T, c corev1.Container, p *corev1.Probe) int {
	t.Helper()
	if p == nil || p.HTTPGet == nil {
		t.Fatalf("container %s has a probe without httpGet: %+v", c.Name, p)
	}
	if n := p.HTTPGet.Port.IntValue(); n > 0 {
		return n
	}
	for _, port := range c.Ports {
		if port.Name == p.HTTPGet.Port.String() {
			return int(port.ContainerPort)
		}
	}
	t.Fatalf("probe port %s is not a port of container %s", p.HTTPGet.Port.String(), c.Name)
	return 0
}
