//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// TestNamespacedOverlay runs the controller as deploy/namespaced/ runs it: as its
// ServiceAccount with no ClusterRole, the Roles of the overlay in the watched namespace,
// and the overlay's -namespace and -cluster-id arguments. It reconciles there (with the
// controller's own cloud and with a tenant's Secret, which it guards under the
// ValidatingAdmissionPolicy of deploy/), leaves another namespace alone, and logs no
// forbidden error. The overlay is used with its namespaces renamed to fresh ones, so that
// no ClusterRole binding of another test lends the ServiceAccount rights.
func TestNamespacedOverlay(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	watched, other, home := NewNamespace(t), NewNamespace(t), NewNamespace(t)
	suffix := RandomSuffix(6)
	overlayArgs := applyNamespacedOverlay(t, watched, home, suffix)
	clusterID := NewClusterID(t)
	for i, arg := range overlayArgs {
		overlayArgs[i] = strings.ReplaceAll(arg, "$(CLUSTER_ID)", clusterID)
	}
	t.Logf("the overlay's arguments: %q", overlayArgs)

	PutCredentialsSecret(t, watched, "openstack", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})
	opts, saKubeconfig := InClusterAs(t, home, "network-controller")
	opts.ClusterID = clusterID
	opts.Env = append(opts.Env, ks.ControllerEnv()...)
	lease := "e2e-namespaced-" + suffix
	opts.Args = append(append(ks.ControllerArgs(MemberCloud), overlayArgs...), "-leader-elect=true", "-leader-elect-lease-name="+lease)
	ctrl := StartController(t, opts)
	ctrl.WaitConnected()

	tenant := CreateTenantNetwork(t, watched, "tenant", "10.162.0.0/24", "openstack", TenantA)
	own := CreateNetwork(t, watched, "own", "10.162.1.0/24", "")
	CreateNetwork(t, other, "elsewhere", "10.162.2.0/24", "")
	WaitReady(t, watched, "tenant", 90*time.Second)
	WaitReady(t, watched, "own", 60*time.Second)
	WaitSecretFinalizers(t, watched, "openstack", 30*time.Second, samplecrdv1.CredentialsFinalizerName)
	Consistently(t, 3*time.Second, 500*time.Millisecond, "the Network of an unwatched namespace to be left alone", func() error {
		n := GetNetwork(t, other, "elsewhere")
		if len(n.Finalizers) > 0 || len(n.Status.Conditions) > 0 || n.Status.NetworkID != "" {
			return fmt.Errorf("finalizers %q, status %+v", n.Finalizers, n.Status)
		}
		return nil
	})

	// The policy lets the ServiceAccount change a Secret's own finalizer and nothing else.
	sa := "system:serviceaccount:" + home + ":network-controller"
	for _, tc := range []struct{ patch, refusal string }{
		{`{"data":{"extra":"eA=="}}`, "may not change a Secret's data"},
		{`{"metadata":{"labels":{"stolen":"yes"}}}`, "may not change a Secret's labels"},
		{`{"metadata":{"finalizers":["` + samplecrdv1.CredentialsFinalizerName + `","e2e.example.com/other"]}}`, "only its own finalizer"},
	} {
		Eventually(t, 30*time.Second, 500*time.Millisecond, "the policy to refuse "+tc.patch, func() error {
			_, stderr, err := KubectlAs(t, saKubeconfig, "patch", "secret", "openstack", "-n", watched, "--type=merge", "-p", tc.patch)
			if err == nil {
				return fmt.Errorf("%s patched the Secret with %s", sa, tc.patch)
			}
			if !strings.Contains(stderr, tc.refusal) {
				return fmt.Errorf("refused, but not by the policy: %s", stderr)
			}
			return nil
		})
	}
	for _, args := range [][]string{
		{"patch", "secrets", "-n", other},
		{"get", "secrets", "-n", other},
		{"list", "networks.samplecrd.k8s.io", "--all-namespaces"},
		{"get", "namespaces/kube-system"},
	} {
		answer, _, _ := KubectlAs(t, Kubeconfig, append([]string{"auth", "can-i", "--as=" + sa}, args...)...)
		if strings.TrimSpace(answer) != "no" {
			t.Errorf("%s may %v (%q); the namespaced overlay must not allow it", sa, args, answer)
		}
	}

	DeleteNetwork(t, watched, "tenant")
	DeleteNetwork(t, watched, "own")
	WaitGone(t, watched, "tenant", 60*time.Second)
	WaitGone(t, watched, "own", 60*time.Second)
	WaitNeutronEmpty(t, OwnerOf(clusterID, tenant), 30*time.Second)
	WaitNeutronEmpty(t, OwnerOf(clusterID, own), 30*time.Second)
	WaitSecretFinalizers(t, watched, "openstack", 30*time.Second)

	ctrl.Signal(syscall.SIGTERM)
	if code, err := ctrl.Wait(30 * time.Second); err != nil || code != 0 {
		t.Errorf("the namespaced controller exited with %d (%v) after SIGTERM, want 0", code, err)
	}
	logs := ctrl.Logs()
	for i, line := range strings.Split(logs, "\n") {
		if l := strings.ToLower(line); strings.Contains(l, "forbidden") || strings.Contains(l, "denied") {
			t.Errorf("log line %d: %s", i+1, line)
		}
	}
	for _, want := range []string{`namespaces="` + watched + `"`, "Became leader", "Added the credentials finalizer", "Removed the credentials finalizer"} {
		if !strings.Contains(logs, want) {
			t.Errorf("namespaced controller log lacks %q", want)
		}
	}
}

// applyNamespacedOverlay renders deploy/namespaced/ with its namespaces renamed (team-a to
// watched, network-controller to home, the policy's names suffixed), applies what gives
// the ServiceAccount its identity and rights, and returns the arguments the overlay adds
// to the Deployment's.
func applyNamespacedOverlay(t *testing.T, watched, home, suffix string) []string {
	t.Helper()
	rendered, stderr, err := KubectlAs(t, Kubeconfig, "kustomize", "deploy/namespaced/")
	if err != nil {
		t.Fatalf("kubectl kustomize deploy/namespaced/: %v\n%s", err, stderr)
	}
	rendered = strings.NewReplacer(
		"namespace: network-controller-identities", "namespace: "+home+"-ids",
		"name: network-controller-identities", "name: "+home+"-ids",
		"namespace: team-a", "namespace: "+watched,
		"-namespace=team-a", "-namespace="+watched,
		"namespace: network-controller", "namespace: "+home,
		"system:serviceaccount:network-controller:", "system:serviceaccount:"+home+":",
		"name: network-controller-secrets", "name: network-controller-secrets-"+suffix,
		"name: network-controller-credentials", "name: network-controller-credentials-"+suffix,
		"policyName: network-controller-secrets", "policyName: network-controller-secrets-"+suffix,
		"name: network-controller-metrics-", "name: e2e-"+suffix+"-network-controller-metrics-",
		"name: network-controller-grants", "name: e2e-"+suffix+"-network-controller-grants",
	).Replace(rendered)

	var apply, args, cleanup []string
	for _, doc := range strings.Split(rendered, "\n---\n") {
		var obj unstructured.Unstructured
		if err := yaml.Unmarshal([]byte(doc), &obj.Object); err != nil {
			t.Fatalf("parsing the overlay's output: %v", err)
		}
		switch obj.GetKind() {
		case "ClusterRole":
			// Only the rights behind -metrics-secure, which read no object, the
			// credentials role, which only RoleBindings bind, and the read of identities
			// and namespaces' labels.
			if rules := clusterRoleRules(t, obj); rules != metricsAuthRules && rules != metricsReaderRules && rules != credentialsRules && rules != grantsRules {
				t.Fatalf("deploy/namespaced/ has ClusterRole %s with rules %s; beyond the metrics reviews, the credentials role and the grants' reads it must grant only Roles", obj.GetName(), rules)
			}
			apply = append(apply, doc)
			cleanup = append(cleanup, "clusterrole/"+obj.GetName())
		case "ClusterRoleBinding":
			apply = append(apply, doc)
			cleanup = append(cleanup, "clusterrolebinding/"+obj.GetName())
		case "Namespace":
			// The home namespace is the test's; the one for identities' Secrets is made.
			if obj.GetName() == home+"-ids" {
				apply = append(apply, doc)
				cleanup = append(cleanup, "namespace/"+obj.GetName())
			}
		case "ServiceAccount", "Role", "RoleBinding", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding":
			apply = append(apply, doc)
		case "Deployment":
			containers, _, _ := unstructured.NestedSlice(obj.Object, "spec", "template", "spec", "containers")
			if len(containers) != 1 {
				t.Fatalf("the overlay's Deployment has %d containers, want 1", len(containers))
			}
			all, _, _ := unstructured.NestedStringSlice(containers[0].(map[string]any), "args")
			for _, arg := range all {
				if strings.HasPrefix(arg, "-namespace=") || strings.HasPrefix(arg, "-cluster-id=") {
					args = append(args, arg)
				}
			}
		}
	}
	if len(args) != 2 {
		t.Fatalf("the overlay adds %q to the Deployment's arguments, want one -namespace and one -cluster-id", args)
	}
	t.Cleanup(func() {
		_, _, _ = KubectlAs(t, Kubeconfig, append([]string{"delete", "--ignore-not-found",
			"validatingadmissionpolicybinding/network-controller-secrets-" + suffix,
			"validatingadmissionpolicy/network-controller-secrets-" + suffix}, cleanup...)...)
	})
	MustKubectl(t, "apply", "-f", WriteFile(t, "namespaced.yaml", strings.Join(apply, "\n---\n")))
	return args
}

// The rules of the ClusterRoles of deploy/base/ behind -metrics-secure, as clusterRoleRules
// prints them.
const (
	metricsAuthRules   = "authentication.k8s.io/tokenreviews:create; authorization.k8s.io/subjectaccessreviews:create"
	metricsReaderRules = "/metrics:get"
	credentialsRules   = "/secrets:get; /secrets:list; /secrets:patch; /secrets:watch"
	grantsRules        = "/namespaces:list; /namespaces:watch; samplecrd.k8s.io/clusteridentities/status:update; samplecrd.k8s.io/clusteridentities:get; samplecrd.k8s.io/clusteridentities:list; samplecrd.k8s.io/clusteridentities:watch"
)

// clusterRoleRules prints a ClusterRole's rules in one line, sorted.
func clusterRoleRules(t *testing.T, obj unstructured.Unstructured) string {
	t.Helper()
	var role rbacv1.ClusterRole
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, &role); err != nil {
		t.Fatalf("reading ClusterRole %s: %v", obj.GetName(), err)
	}
	var out []string
	for _, r := range role.Rules {
		for _, v := range r.Verbs {
			for _, u := range r.NonResourceURLs {
				out = append(out, u+":"+v)
			}
			for _, g := range r.APIGroups {
				for _, res := range r.Resources {
					out = append(out, g+"/"+res+":"+v)
				}
			}
		}
	}
	slices.Sort(out)
	return strings.Join(out, "; ")
}
