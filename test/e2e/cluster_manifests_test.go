//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// TestClusterDeployManifests checks deploy/base/40-deployment.yaml as the apiserver sees it
// (server-side dry run, with defaults) in a namespace of this test: the security and
// operational settings the controller relies on, that every argument is a flag the
// controller binary accepts, and that a Pod made from the template is admitted under the
// "restricted" Pod Security Standard.
func TestClusterDeployManifests(t *testing.T) {
	t.Parallel()
	ns := NewNamespace(t)
	MustKubectl(t, "label", "namespace", ns,
		"pod-security.kubernetes.io/enforce=restricted", "pod-security.kubernetes.io/warn=restricted")

	raw, err := os.ReadFile(filepath.Join(RepoRoot, "deploy", "base", "40-deployment.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "namespace: network-controller\n") {
		t.Fatalf("deploy/base/40-deployment.yaml is not in namespace network-controller")
	}
	manifest := WriteFile(t, "deployment.yaml", strings.ReplaceAll(string(raw), "namespace: network-controller\n", "namespace: "+ns+"\n"))
	stdout, stderr, err := KubectlAs(t, Kubeconfig, "apply", "--dry-run=server", "-o", "json", "-f", manifest)
	if err != nil {
		t.Fatalf("server dry run of the Deployment: %v\n%s", err, stderr)
	}
	if strings.TrimSpace(stderr) != "" {
		t.Errorf("server dry run of the Deployment warned (Pod Security?):\n%s", stderr)
	}
	var d appsv1.Deployment
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatalf("decoding the dry-run Deployment: %v", err)
	}
	shutdownTimeout := flagDefault(t, "shutdown-timeout")

	spec := d.Spec.Template.Spec
	if d.Spec.Replicas == nil || *d.Spec.Replicas != 2 {
		t.Errorf("replicas = %v, want 2", d.Spec.Replicas)
	}
	if spec.ServiceAccountName != "network-controller" {
		t.Errorf("serviceAccountName = %q", spec.ServiceAccountName)
	}
	if tg := spec.TerminationGracePeriodSeconds; tg == nil || time.Duration(*tg)*time.Second <= shutdownTimeout {
		t.Errorf("terminationGracePeriodSeconds = %v, want more than the controller's -shutdown-timeout %s", tg, shutdownTimeout)
	}
	psc := spec.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser != 65532 ||
		psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("pod securityContext = %+v, want runAsNonRoot, runAsUser 65532, seccomp RuntimeDefault", psc)
	}
	spread := len(spec.TopologySpreadConstraints) > 0 && spec.TopologySpreadConstraints[0].TopologyKey == corev1.LabelHostname
	anti := spec.Affinity != nil && spec.Affinity.PodAntiAffinity != nil &&
		len(spec.Affinity.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0
	if !spread && !anti {
		t.Errorf("no topology spread or pod anti-affinity across nodes")
	}
	if len(spec.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(spec.Containers))
	}
	c := spec.Containers[0]
	// The file names the image; kustomization.yaml gives it the version's tag
	// (hack/verify-version.sh), as kubectl kustomize shows.
	if c.Image != "network-controller" {
		t.Errorf("image = %q, want network-controller (kustomization.yaml sets the tag)", c.Image)
	}
	if want := "image: network-controller:" + ControllerVersion + "\n"; !strings.Contains(MustKubectl(t, "kustomize", "deploy/"), want) {
		t.Errorf("kubectl kustomize deploy/ does not run %q (the version in VERSION)", strings.TrimSpace(want))
	}
	sc := c.SecurityContext
	if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
		sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
		sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) {
		t.Errorf("container securityContext = %+v, want no privilege escalation, read-only root, drop ALL", sc)
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
		t.Errorf("resources = %+v, want cpu/memory requests and a memory limit", c.Resources)
	}
	ports := map[string]int32{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	if ports["metrics"] != 8443 || ports["health"] != 8081 {
		t.Errorf("container ports = %v, want metrics 8443 and health 8081", ports)
	}
	checkProbe := func(what string, p *corev1.Probe, path string) {
		if p == nil || p.HTTPGet == nil || p.HTTPGet.Path != path ||
			(p.HTTPGet.Port.String() != "health" && p.HTTPGet.Port.IntValue() != 8081) {
			t.Errorf("%s probe = %+v, want GET %s on port 8081", what, p, path)
		}
	}
	checkProbe("liveness", c.LivenessProbe, "/healthz")
	checkProbe("readiness", c.ReadinessProbe, "/readyz")

	env := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		env[e.Name] = e
	}
	if e := env["POD_NAMESPACE"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || e.ValueFrom.FieldRef.FieldPath != "metadata.namespace" {
		t.Errorf("POD_NAMESPACE is not taken from metadata.namespace: %+v", e)
	}
	if env["OS_CLIENT_CONFIG_FILE"].Value != "/etc/openstack/clouds.yaml" || env["OS_CLOUD"].Value == "" {
		t.Errorf("OS_CLIENT_CONFIG_FILE=%q OS_CLOUD=%q, want /etc/openstack/clouds.yaml and a cloud name",
			env["OS_CLIENT_CONFIG_FILE"].Value, env["OS_CLOUD"].Value)
	}
	var mounted bool
	for _, m := range c.VolumeMounts {
		for _, v := range spec.Volumes {
			if v.Name == m.Name && m.MountPath == "/etc/openstack" && m.ReadOnly && v.Secret != nil && v.Secret.SecretName == "network-controller-clouds" {
				mounted = true
			}
		}
	}
	if !mounted {
		t.Errorf("Secret network-controller-clouds is not mounted read-only at /etc/openstack")
	}

	// The arguments, with $(VAR) expanded as the kubelet does, are flags of this binary
	// with valid values: parsing them and then -h exits 0 (an unknown flag or a bad value
	// exits 2 first).
	for _, want := range []string{"-metrics-bind-address=:8443", "-metrics-secure=true", "-health-probe-bind-address=:8081", "-logging-format=json"} {
		if !slices.Contains(c.Args, want) {
			t.Errorf("args %q lack %s", c.Args, want)
		}
	}
	expanded := expandArgs(c.Args, containerEnv(t, &d))
	out, err := exec.Command(ControllerBinary, append(expanded, "-h")...).CombinedOutput()
	if err != nil {
		t.Errorf("the controller does not accept the Deployment's args %q: %v\n%s", expanded, err, LastLines(string(out), 5))
	}

	// A Pod from the template is admitted where "restricted" is enforced. Its
	// ServiceAccount must exist (the ServiceAccount admission plugin), as deploy/ makes it.
	MustKubectl(t, "create", "serviceaccount", spec.ServiceAccountName, "-n", ns)
	pod := corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: "network-controller-psa-check", Namespace: ns, Labels: d.Spec.Template.Labels},
		Spec:       spec,
	}
	podJSON, err := json.Marshal(pod)
	if err != nil {
		t.Fatal(err)
	}
	_, stderr, err = KubectlAs(t, Kubeconfig, "create", "--dry-run=server", "-f", WriteFile(t, "pod.json", string(podJSON)))
	if err != nil || strings.TrimSpace(stderr) != "" {
		t.Errorf("a Pod of the Deployment's template is not admitted under Pod Security \"restricted\": %v\n%s", err, stderr)
	}
}

// flagDefault reads the default of a duration flag from the controller's -h output.
func flagDefault(t *testing.T, name string) time.Duration {
	t.Helper()
	out, _ := exec.Command(ControllerBinary, "-h").CombinedOutput()
	m := regexp.MustCompile(`(?m)^  -` + regexp.QuoteMeta(name) + ` duration\n.*\(default ([^)]+)\)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("cannot find the default of -%s in the controller's -h output:\n%s", name, out)
	}
	d, err := time.ParseDuration(string(m[1]))
	if err != nil {
		t.Fatalf("default of -%s: %v", name, err)
	}
	return d
}

// TestClusterKustomize renders deploy/ as `kubectl apply -k deploy/` does and has the
// apiserver accept every object in a server-side dry run (after creating the Namespace for
// real: a dry run would not create it for the namespaced objects). It also checks that
// every manifest of deploy/ and deploy/base/ is a resource of its kustomization, that the
// image is set by deploy/base/kustomization.yaml, and that an overlay's images: entry reaches the Deployment, as
// docs/operations.md and deploy/README.md tell operators who run their own image.
func TestClusterKustomize(t *testing.T) {
	t.Parallel()
	MustKubectl(t, "apply", "-f", filepath.Join("deploy", "base", "00-namespace.yaml"))

	// Every manifest of deploy/ and deploy/base/ is a resource of its folder's kustomization.
	type kustomizationFile struct {
		Resources []string `json:"resources"`
		Images    []struct {
			Name, NewName, NewTag string
		} `json:"images"`
	}
	var base kustomizationFile
	for _, dir := range []string{"deploy", "deploy/base"} {
		var kustomization kustomizationFile
		raw, err := os.ReadFile(filepath.Join(RepoRoot, dir, "kustomization.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(raw, &kustomization); err != nil {
			t.Fatalf("parsing %s/kustomization.yaml: %v", dir, err)
		}
		manifests, err := filepath.Glob(filepath.Join(RepoRoot, dir, "*.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range manifests {
			if name := filepath.Base(m); name != "kustomization.yaml" && !slices.Contains(kustomization.Resources, name) {
				t.Errorf("%s/%s is not a resource of %s/kustomization.yaml, so kubectl apply -k deploy/ leaves it out", dir, name, dir)
			}
		}
		if dir == "deploy/base" {
			base = kustomization
		}
	}
	kustomization := base
	if len(kustomization.Images) != 1 || kustomization.Images[0].Name != "network-controller" {
		t.Fatalf("deploy/base/kustomization.yaml images = %+v, want one entry for network-controller", kustomization.Images)
	}
	wantImage := kustomization.Images[0].NewName + ":" + kustomization.Images[0].NewTag

	rendered, stderr, err := KubectlAs(t, Kubeconfig, "kustomize", "deploy/")
	if err != nil {
		t.Fatalf("kubectl kustomize deploy/: %v\n%s", err, stderr)
	}
	stdout, stderr, err := KubectlAs(t, Kubeconfig, "apply", "--dry-run=server", "-o", "json", "-f", WriteFile(t, "deploy.yaml", rendered))
	if err != nil {
		t.Fatalf("server dry run of kubectl kustomize deploy/: %v\n%s", err, stderr)
	}
	if strings.TrimSpace(stderr) != "" {
		t.Errorf("server dry run of kubectl kustomize deploy/ warned:\n%s", stderr)
	}
	var list struct {
		Items []unstructured.Unstructured `json:"items"`
	}
	if err := json.Unmarshal([]byte(stdout), &list); err != nil {
		t.Fatalf("decoding the dry-run objects: %v", err)
	}
	var got []string
	for _, obj := range list.Items {
		got = append(got, obj.GetKind()+"/"+obj.GetName())
		if obj.GetKind() == "Deployment" {
			if image := deploymentImage(t, obj); image != wantImage {
				t.Errorf("Deployment image after kustomize = %q, want %q from the kustomization", image, wantImage)
			}
		}
	}
	slices.Sort(got)
	want := []string{
		"ClusterRole/network-controller", "ClusterRole/network-controller-credentials", "ClusterRole/network-controller-grants", "ClusterRole/network-controller-metrics-auth", "ClusterRole/network-controller-metrics-reader",
		"ClusterRoleBinding/network-controller", "ClusterRoleBinding/network-controller-grants", "ClusterRoleBinding/network-controller-metrics-auth", "Deployment/network-controller",
		"Namespace/network-controller", "Namespace/network-controller-identities", "NetworkPolicy/network-controller", "PodDisruptionBudget/network-controller",
		"Role/network-controller-identity-secrets", "Role/network-controller-keystone-refusals", "Role/network-controller-leader-election",
		"RoleBinding/network-controller-identity-secrets", "RoleBinding/network-controller-keystone-refusals", "RoleBinding/network-controller-leader-election", "Service/network-controller-metrics", "ServiceAccount/network-controller",
		"ValidatingAdmissionPolicy/network-controller-secrets", "ValidatingAdmissionPolicyBinding/network-controller-secrets",
	}
	if !slices.Equal(got, want) {
		t.Errorf("kubectl kustomize deploy/ objects accepted by the apiserver:\n got %q\nwant %q", got, want)
	}

	// An overlay of one's own that sets another image.
	overlay := t.TempDir()
	rel, err := filepath.Rel(overlay, filepath.Join(RepoRoot, "deploy"))
	if err != nil {
		t.Fatal(err)
	}
	const custom = "registry.example.com/network-controller:v1.2.3"
	if err := os.WriteFile(filepath.Join(overlay, "kustomization.yaml"), []byte(fmt.Sprintf(`resources: [%q]
images:
  - name: network-controller
    newName: registry.example.com/network-controller
    newTag: v1.2.3
`, rel)), 0o644); err != nil {
		t.Fatal(err)
	}
	rendered, stderr, err = KubectlAs(t, Kubeconfig, "kustomize", overlay)
	if err != nil {
		t.Fatalf("kubectl kustomize of an overlay: %v\n%s", err, stderr)
	}
	var found bool
	for _, doc := range strings.Split(rendered, "\n---\n") {
		var obj unstructured.Unstructured
		if err := yaml.Unmarshal([]byte(doc), &obj.Object); err != nil {
			t.Fatalf("parsing the overlay's output: %v", err)
		}
		if obj.GetKind() == "Deployment" {
			found = true
			if image := deploymentImage(t, obj); image != custom {
				t.Errorf("Deployment image through an overlay = %q, want %q", image, custom)
			}
		}
	}
	if !found {
		t.Errorf("the overlay's output has no Deployment:\n%s", rendered)
	}
}

// deploymentImage returns the image of a Deployment's only container.
func deploymentImage(t *testing.T, obj unstructured.Unstructured) string {
	t.Helper()
	containers, _, err := unstructured.NestedSlice(obj.Object, "spec", "template", "spec", "containers")
	if err != nil || len(containers) != 1 {
		t.Fatalf("Deployment %s: %d containers (%v), want 1", obj.GetName(), len(containers), err)
	}
	image, _, _ := unstructured.NestedString(containers[0].(map[string]any), "image")
	return image
}

// readDeployment parses deploy/base/40-deployment.yaml.
func readDeployment(t *testing.T) *appsv1.Deployment {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(RepoRoot, "deploy", "base", "40-deployment.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var d appsv1.Deployment
	if err := yaml.UnmarshalStrict(raw, &d); err != nil {
		t.Fatalf("parsing deploy/base/40-deployment.yaml: %v", err)
	}
	if len(d.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("deploy/base/40-deployment.yaml has %d containers, want 1", len(d.Spec.Template.Spec.Containers))
	}
	return &d
}

// containerEnv resolves the container's environment as the kubelet would.
func containerEnv(t *testing.T, d *appsv1.Deployment) map[string]string {
	t.Helper()
	c := d.Spec.Template.Spec.Containers[0]
	env := map[string]string{}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = e.Value
		case e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.namespace":
			env[e.Name] = d.Namespace
		case e.ValueFrom.ResourceFieldRef != nil && e.ValueFrom.ResourceFieldRef.Resource == "limits.memory":
			env[e.Name] = strconv.FormatInt(c.Resources.Limits.Memory().Value(), 10)
		default:
			t.Fatalf("env %s of the Deployment: this test cannot resolve %+v yet", e.Name, e.ValueFrom)
		}
	}
	return env
}

// expandArgs replaces $(VAR) references as the kubelet does.
func expandArgs(args []string, env map[string]string) []string {
	ref := regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = ref.ReplaceAllStringFunc(a, func(r string) string {
			if v, ok := env[r[2:len(r)-1]]; ok {
				return v
			}
			return r
		})
	}
	return out
}
