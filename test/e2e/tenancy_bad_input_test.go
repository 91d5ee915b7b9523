//go:build e2e

package e2e

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// Every kind of bad credentials gets a Ready=False reason of its own, with a message
// naming the Secret (never a secret value) and an Event, creates nothing in Neutron, and
// leaves another namespace's Network alone. Refused credentials are sent to Keystone once,
// however many Networks use them (counted in the request log of a Keystone of the test's
// own, with users of its own).
func TestTenantBadCredentials(t *testing.T) {
	t.Parallel()
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, TenantA, TenantB))
	ns, good := NewNamespace(t), NewNamespace(t)
	unreachable := "http://" + freeAddress(t) + "/v3"

	deleted := ks.NewApplicationCredential(t, "team-b-user", "e2e-deleted-"+RandomSuffix(6))
	deleted.Delete(t)

	teamA := ks.CloudsYAMLOf(t, TenantA)
	cases := []struct {
		name, reason string
		data         map[string]string // nil: no Secret at all
		cloud        string
		says         string
	}{
		{"missing", samplecrdv1.ReasonCredentialsSecretNotFound, nil, TenantA, "does not exist"},
		{"nokey", samplecrdv1.ReasonCredentialsKeyMissing, map[string]string{"cloud.yaml": teamA}, TenantA, "has no key clouds.yaml"},
		{"badyaml", samplecrdv1.ReasonCloudsYAMLInvalid, map[string]string{"clouds.yaml": "clouds:\n  team-a: [\n"}, TenantA, "not a valid clouds.yaml"},
		{"nocloud", samplecrdv1.ReasonCloudNotFound, map[string]string{"clouds.yaml": teamA}, "team-z", `has no cloud "team-z"`},
		{"filepath", samplecrdv1.ReasonCredentialsFileRefused, map[string]string{"clouds.yaml": editCloud(t, teamA, TenantA, func(c map[string]any) { c["cacert"] = "/etc/ssl/certs/ca-certificates.crt" })}, TenantA, "sets cacert"},
		{"notallowed", samplecrdv1.ReasonAuthURLNotAllowed, map[string]string{"clouds.yaml": editAuth(t, teamA, TenantA, "auth_url", "http://169.254.169.254/v3")}, TenantA, "does not allow"},
		{"wrongpw", samplecrdv1.ReasonPasswordRejected, map[string]string{"clouds.yaml": editAuth(t, teamA, TenantA, "password", "wrong-"+RandomSuffix(8))}, TenantA, "Keystone refused the password"},
		{"deletedcred", samplecrdv1.ReasonApplicationCredentialRejected, map[string]string{"clouds.yaml": deleted.CloudsYAML(ks.AuthURL, TenantB)}, TenantB, "Keystone refused the application credential"},
		{"unreachable", samplecrdv1.ReasonKeystoneUnavailable, map[string]string{"clouds.yaml": editAuth(t, teamA, TenantA, "auth_url", unreachable)}, TenantA, "retrying with backoff"},
		{"badca", samplecrdv1.ReasonCACertInvalid, map[string]string{"clouds.yaml": teamA, "cacert": "-----BEGIN CERTIFICATE-----\nnot really\n-----END CERTIFICATE-----\n"}, TenantA, "key cacert of Secret"},
		{"manycerts", samplecrdv1.ReasonCACertInvalid, map[string]string{"clouds.yaml": teamA, "cacert": caBundle(t, 17, 0)}, TenantA, "more than the 16 certificates"},
		{"bigca", samplecrdv1.ReasonCACertInvalid, map[string]string{"clouds.yaml": teamA, "cacert": caBundle(t, 16, 3000)}, TenantA, "more than the 32768"},
		{"unverified", samplecrdv1.ReasonTLSVerificationRefused, map[string]string{"clouds.yaml": editCloud(t, teamA, TenantA, func(c map[string]any) { c["verify"] = false })}, TenantA, "-allow-unverified-tls"},
	}
	secrets := append(ks.SecretsOf(t, TenantA), deleted.Secret)
	for _, tc := range cases {
		if tc.data != nil {
			PutCredentialsSecret(t, ns, tc.name, tc.data)
		}
	}
	PutCredentialsSecret(t, good, "openstack", map[string]string{"clouds.yaml": teamA})

	_, logLines := ks.ControllerTokenRequests(t, 0)
	ctrl := StartController(t, ControllerOptions{
		Namespaces: []string{ns, good},
		Args:       append(ks.ControllerArgs(MemberCloud), "-allowed-auth-urls="+ks.AuthURL+","+unreachable),
		Env:        ks.ControllerEnv(),
	})
	// The other namespace's Network first: its token links team-a's user, so that the
	// wrong password below is refused once and the lockout gate keeps the user's second
	// refusal for this Secret. Had the wrong password come first, the gate would hold the
	// right one too (nothing yet says it is the same user's), which is its job, not what
	// this test is about; the order was left to the controller before.
	CreateTenantNetwork(t, good, "fine", "10.162.0.0/24", "openstack", TenantA)
	WaitReady(t, good, "fine", 60*time.Second)
	for i, tc := range cases {
		CreateTenantNetwork(t, ns, tc.name, "10.160."+strconv.Itoa(i)+".0/24", tc.name, tc.cloud)
	}
	// Two more Networks on the wrong password: still one attempt at Keystone.
	CreateTenantNetwork(t, ns, "wrongpw-2", "10.161.0.0/24", "wrongpw", TenantA)
	CreateTenantNetwork(t, ns, "wrongpw-3", "10.161.1.0/24", "wrongpw", TenantA)

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := WaitReason(t, ns, tc.name, 60*time.Second, metav1.ConditionFalse, tc.reason)
			msg := n.ReadyCondition().Message
			if !strings.Contains(msg, ns+"/"+tc.name) || !strings.Contains(msg, tc.says) {
				t.Errorf("message %q should name Secret %s/%s and say %q", msg, ns, tc.name, tc.says)
			}
			WaitEvent(t, ns, tc.name, "Warning", tc.reason, ns+"/"+tc.name, 30*time.Second)
			for _, secret := range secrets {
				if strings.Contains(msg, secret) {
					t.Errorf("message %q shows a secret", msg)
				}
			}
			if nets, _, err := NeutronOf(t, OwnerOf(ctrl.ClusterID, n)); err != nil || len(nets) > 0 {
				t.Errorf("Neutron networks %v (err %v), want none", ids(nets), err)
			}
		})
	}
	for _, name := range []string{"wrongpw-2", "wrongpw-3"} {
		WaitReason(t, ns, name, 60*time.Second, metav1.ConditionFalse, samplecrdv1.ReasonPasswordRejected)
	}
	WaitReady(t, good, "fine", 30*time.Second)

	// The wrong password once (401); the deleted application credential once (Keystone
	// answers 404 for an application credential it does not know).
	wrongPassword, _ := ks.ControllerTokenAnswers(t, logLines, "401")
	unknownCredential, _ := ks.ControllerTokenAnswers(t, logLines, "404")
	if refused := append(wrongPassword, unknownCredential...); len(refused) != 2 {
		t.Errorf("Keystone refused %d token requests of the controller, want 2 (one per bad credential): %v", len(refused), refused)
	}
	logs := ctrl.Logs()
	for _, secret := range secrets {
		if strings.Contains(logs, secret) {
			t.Error("the controller's log shows a secret")
		}
	}

	// Bad credentials never reached Neutron, so deleting needs none.
	for _, tc := range cases {
		DeleteNetwork(t, ns, tc.name)
	}
	for _, tc := range cases {
		WaitGone(t, ns, tc.name, 30*time.Second)
	}
	DeleteNetwork(t, good, "fine")
	WaitGone(t, good, "fine", 60*time.Second)
}

// caBundle returns n self-signed CA certificates as PEM, each after a comment of
// commentBytes (as in bundles that describe each certificate).
func caBundle(t testing.TB, n, commentBytes int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(int64(i + 1)), Subject: pkix.Name{CommonName: "e2e CA " + strconv.Itoa(i)},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(strings.Repeat("#", commentBytes) + "\n")
		b.Write(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	}
	return b.String()
}

// editCloud changes cloud's entry in a clouds.yaml with edit.
func editCloud(t testing.TB, cloudsYAML, cloud string, edit func(map[string]any)) string {
	t.Helper()
	var file map[string]map[string]map[string]any
	if err := yaml.Unmarshal([]byte(cloudsYAML), &file); err != nil {
		t.Fatal(err)
	}
	edit(file["clouds"][cloud])
	out, err := yaml.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// editAuth sets one key of cloud's auth section.
func editAuth(t testing.TB, cloudsYAML, cloud, key, value string) string {
	return editCloud(t, cloudsYAML, cloud, func(c map[string]any) { c["auth"].(map[string]any)[key] = value })
}
