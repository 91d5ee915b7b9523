//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// The controller runs as deploy/'s ServiceAccount, which may read no Secret of the
// cluster. A tenant namespace without the RoleBinding gets the reason that names it; after
// the RoleBinding (of the shipped ClusterRole, or of a Role narrowed by resourceNames to
// the one Secret) its Networks become Ready; an unlabelled Secret gets its own reason, and
// works once labelled.
func TestCredentialsGrantInCluster(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	applyDeployRBAC(t)
	for _, args := range [][]string{
		{"list", "secrets", "--all-namespaces"},
		{"watch", "secrets", "--all-namespaces"},
		{"get", "secrets", "-n", "kube-system"},
	} {
		if canI(t, args...) {
			t.Errorf("%s may %v; deploy/ must grant no right on Secrets", deployUser, args)
		}
	}

	granted, narrowed := NewNamespace(t), NewNamespace(t)
	teamA := ks.CloudsYAMLOf(t, TenantA)
	for _, ns := range []string{granted, narrowed} {
		PutCredentialsSecret(t, ns, "openstack", map[string]string{"clouds.yaml": teamA})
	}
	PutSecret(t, granted, "unlabelled", nil, map[string]string{"clouds.yaml": teamA})

	opts, _ := InClusterAs(t, deployNamespace, deployServiceAccount)
	opts.Namespaces = []string{granted, narrowed}
	opts.Args = ks.ControllerArgs(MemberCloud)
	opts.Env = append(opts.Env, ks.ControllerEnv()...)
	ctrl := StartController(t, opts)
	ctrl.WaitConnected()

	CreateTenantNetwork(t, granted, "a", "10.165.0.0/24", "openstack", TenantA)
	CreateTenantNetwork(t, narrowed, "b", "10.165.1.0/24", "openstack", TenantA)
	for _, nn := range [][2]string{{granted, "a"}, {narrowed, "b"}} {
		n := WaitReason(t, nn[0], nn[1], 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonCredentialsNotGranted)
		msg := n.ReadyCondition().Message
		for _, want := range []string{
			"kubectl create rolebinding network-controller-credentials --namespace " + nn[0],
			"--clusterrole network-controller-credentials",
			"--serviceaccount " + deployNamespace + ":" + deployServiceAccount,
		} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s/%s: message %q lacks %q", nn[0], nn[1], msg, want)
			}
		}
	}

	sa := deployNamespace + ":" + deployServiceAccount
	MustKubectl(t, "create", "rolebinding", "network-controller-credentials", "-n", granted,
		"--clusterrole", "network-controller-credentials", "--serviceaccount", sa)
	MustKubectl(t, "create", "role", "openstack-only", "-n", narrowed,
		"--verb=get,list,watch,patch", "--resource=secrets", "--resource-name=openstack")
	MustKubectl(t, "create", "rolebinding", "openstack-only", "-n", narrowed, "--role", "openstack-only", "--serviceaccount", sa)
	WaitReady(t, granted, "a", 2*time.Minute)
	WaitReady(t, narrowed, "b", 2*time.Minute)
	WaitSecretFinalizers(t, narrowed, "openstack", 30*time.Second, samplecrdv1.CredentialsFinalizerName)
	if canI(t, "get", "secrets/other", "-n", narrowed) {
		t.Errorf("%s may get other Secrets of %s", deployUser, narrowed)
	}

	CreateTenantNetwork(t, granted, "c", "10.165.2.0/24", "unlabelled", TenantA)
	n := WaitReason(t, granted, "c", 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonCredentialsSecretNotLabelled)
	if msg := n.ReadyCondition().Message; !strings.Contains(msg, "kubectl label secret --namespace "+granted+" unlabelled "+samplecrdv1.CredentialsLabel+"=true") {
		t.Errorf("message %q does not say how to label the Secret", msg)
	}
	MustKubectl(t, "label", "secret", "unlabelled", "-n", granted, samplecrdv1.CredentialsLabel+"=true")
	WaitReady(t, granted, "c", 60*time.Second)

	for _, nn := range [][2]string{{granted, "a"}, {narrowed, "b"}, {granted, "c"}} {
		DeleteNetwork(t, nn[0], nn[1])
	}
	for _, nn := range [][2]string{{granted, "a"}, {narrowed, "b"}, {granted, "c"}} {
		WaitGone(t, nn[0], nn[1], 90*time.Second)
	}
	WaitSecretFinalizers(t, narrowed, "openstack", 30*time.Second)
	logs := ctrl.Logs()
	for _, secret := range ks.SecretsOf(t, TenantA) {
		if strings.Contains(logs, secret) {
			t.Error("the controller's log shows a secret")
		}
	}
}
