//go:build e2e

package e2e

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// checkRules compares the live ClusterRole and Role with the expected rules.
func checkRules(t *testing.T) {
	t.Helper()
	kube, _ := Clients(t)
	ctx := Ctx(t, 30*time.Second)
	cr, err := kube.RbacV1().ClusterRoles().Get(ctx, "network-controller", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := normalizeRules(cr.Rules), normalizeRules(expectedClusterRole); !reflect.DeepEqual(got, want) {
		t.Errorf("ClusterRole network-controller rules:\n got %v\nwant %v", got, want)
	}
	creds, err := kube.RbacV1().ClusterRoles().Get(ctx, "network-controller-credentials", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := normalizeRules(creds.Rules), normalizeRules(expectedCredentialsRole); !reflect.DeepEqual(got, want) {
		t.Errorf("ClusterRole network-controller-credentials rules:\n got %v\nwant %v", got, want)
	}
	auth, err := kube.RbacV1().ClusterRoles().Get(ctx, "network-controller-metrics-auth", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := normalizeRules(auth.Rules), normalizeRules(expectedMetricsAuthRole); !reflect.DeepEqual(got, want) {
		t.Errorf("ClusterRole network-controller-metrics-auth rules:\n got %v\nwant %v", got, want)
	}
	grants, err := kube.RbacV1().ClusterRoles().Get(ctx, "network-controller-grants", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := normalizeRules(grants.Rules), normalizeRules(expectedGrantsRole); !reflect.DeepEqual(got, want) {
		t.Errorf("ClusterRole network-controller-grants rules:\n got %v\nwant %v", got, want)
	}
	role, err := kube.RbacV1().Roles(deployNamespace).Get(ctx, "network-controller-leader-election", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := normalizeRules(role.Rules), normalizeRules(expectedLeaseRole); !reflect.DeepEqual(got, want) {
		t.Errorf("Role network-controller-leader-election rules:\n got %v\nwant %v", got, want)
	}
	refusals, err := kube.RbacV1().Roles(deployNamespace).Get(ctx, "network-controller-keystone-refusals", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := normalizeRules(refusals.Rules), normalizeRules(expectedRefusalsRole); !reflect.DeepEqual(got, want) {
		t.Errorf("Role network-controller-keystone-refusals rules:\n got %v\nwant %v", got, want)
	}
}

func normalizeRules(rules []rbacv1.PolicyRule) []string {
	var out []string
	for _, r := range rules {
		for _, g := range r.APIGroups {
			for _, res := range r.Resources {
				for _, v := range r.Verbs {
					out = append(out, fmt.Sprintf("%s|%s|%s|%s", g, res, v, strings.Join(r.ResourceNames, ",")))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// canI asks the apiserver whether the ServiceAccount may do args (kubectl auth can-i).
func canI(t *testing.T, args ...string) bool {
	t.Helper()
	// The answer is on stdout; warnings and errors are on stderr.
	answer, stderr, _ := KubectlAs(t, Kubeconfig, append([]string{"auth", "can-i", "--as=" + deployUser}, args...)...)
	if strings.Contains(stderr, "doesn't have a resource type") {
		// A "no" for a resource the apiserver does not know would prove nothing.
		t.Fatalf("kubectl auth can-i %v: unknown resource: %s", args, stderr)
	}
	switch strings.TrimSpace(answer) {
	case "yes":
		return true
	case "no":
		return false
	default:
		t.Fatalf("kubectl auth can-i %v: unexpected answer %q (stderr %q)", args, answer, stderr)
		return false
	}
}

// checkCanI asks the apiserver, through SubjectAccessReviews, for every grant of the
// live ClusterRole and Role (each must be allowed) and for rights the controller must not
// have.
func checkCanI(t *testing.T) {
	t.Helper()
	var yes [][]string
	add := func(rules []rbacv1.PolicyRule, scope ...string) {
		for _, r := range rules {
			for _, g := range r.APIGroups {
				for _, res := range r.Resources {
					resource, sub, _ := strings.Cut(res, "/")
					if g != "" {
						resource += "." + g
					}
					targets := []string{resource}
					if len(r.ResourceNames) > 0 {
						targets = nil
						for _, name := range r.ResourceNames {
							targets = append(targets, resource+"/"+name)
						}
					}
					for _, target := range targets {
						for _, v := range r.Verbs {
							args := []string{v, target}
							if sub != "" {
								args = append(args, "--subresource="+sub)
							}
							yes = append(yes, append(args, scope...))
						}
					}
				}
			}
		}
	}
	add(expectedClusterRole, "--all-namespaces")
	add(expectedMetricsAuthRole)
	add(expectedGrantsRole)
	add(expectedLeaseRole, "-n", deployNamespace)
	add(expectedRefusalsRole, "-n", deployNamespace)
	// The Secrets of delegating identities, in their namespace only.
	for _, verb := range []string{"get", "list", "watch"} {
		yes = append(yes, []string{verb, "secrets", "-n", identitySecretsNamespace})
	}
	for _, args := range yes {
		if !canI(t, args...) {
			t.Errorf("%s may not %v; the deploy/ RBAC should allow it", deployUser, args)
		}
	}

	no := [][]string{
		// No Secret anywhere until a namespace binds the credentials ClusterRole.
		{"list", "secrets", "--all-namespaces"},
		{"watch", "secrets", "--all-namespaces"},
		{"get", "secrets", "-n", "kube-system"},
		{"get", "secrets", "-n", deployNamespace},
		{"patch", "secrets", "-n", "default"},
		{"create", "secrets", "-n", "default"},
		{"update", "secrets", "-n", "default"},
		{"delete", "secrets", "-n", deployNamespace},
		{"patch", "secrets", "-n", identitySecretsNamespace},
		{"update", "secrets", "-n", identitySecretsNamespace},
		{"delete", "secrets", "-n", identitySecretsNamespace},
		{"create", "secrets", "-n", identitySecretsNamespace},
		{"delete", "networks.samplecrd.k8s.io", "--all-namespaces"},
		{"delete", "networks.samplecrd.k8s.io", "-n", "default"},
		{"deletecollection", "networks.samplecrd.k8s.io", "-n", "default"},
		{"create", "networks.samplecrd.k8s.io", "-n", "default"},
		{"patch", "networks.samplecrd.k8s.io", "--subresource=finalizers", "-n", "default"},
		{"get", "pods", "-n", deployNamespace},
		{"list", "pods", "--all-namespaces"},
		{"update", "leases.coordination.k8s.io", "-n", "kube-system"},
		{"get", "leases.coordination.k8s.io", "-n", "default"},
		{"create", "leases.coordination.k8s.io", "-n", "kube-node-lease"},
		{"watch", "leases.coordination.k8s.io", "-n", deployNamespace},
		// Its own ConfigMap of refusals, and no other.
		{"get", "configmaps/kube-root-ca.crt", "-n", deployNamespace},
		{"patch", "configmaps/network-controller-cluster", "-n", deployNamespace},
		{"list", "configmaps", "-n", deployNamespace},
		{"delete", "configmaps/network-controller-keystone-refusals", "-n", deployNamespace},
		{"create", "configmaps", "-n", "default"},
		{"get", "namespaces/default"},
		{"create", "clusteridentities.samplecrd.k8s.io"},
		{"update", "clusteridentities.samplecrd.k8s.io"},
		{"delete", "clusteridentities.samplecrd.k8s.io"},
		{"update", "namespaces/kube-system"},
		{"delete", "events", "--all-namespaces"},
		{"create", "serviceaccounts", "--subresource=token", "-n", deployNamespace},
		{"impersonate", "serviceaccounts", "--all-namespaces"},
		{"*", "*", "--all-namespaces"},
		// The controller reviews its metrics callers; it does not read its own metrics.
		{"get", "/metrics"},
	}
	for _, args := range no {
		if canI(t, args...) {
			t.Errorf("%s may %v; the deploy/ RBAC must not allow it", deployUser, args)
		}
	}
}
