//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2"
	"github.com/gophercloud/gophercloud/v2/openstack"
	"github.com/gophercloud/gophercloud/v2/openstack/config/clouds"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/lockout"
)

// Two controllers, each watching its own namespace (-namespace) and sharing one record of
// refusals, meet Secrets that name one Keystone user (Keystone locks it at 3 refusals in a
// row) by its ID, in capitals, and by its name in capitals, each with a wrong password,
// twice over (a second version of every Secret). Keystone refuses at most 2 of their
// token requests. Spellings Keystone's MariaDB may take for the user too (accents, "ß",
// surrounding spaces) are refused before any request. The user still logs in.
func TestSpellingsAndControllersLockNoUserOut(t *testing.T) {
	t.Parallel()
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, MemberCloud, TenantA))
	victim := ks.CloudsYAMLOf(t, TenantA)
	userID := ks.UserID(t, TenantA)
	var name string
	editCloud(t, victim, TenantA, func(c map[string]any) { name = fmt.Sprint(c["auth"].(map[string]any)["username"]) })
	spellings := map[string]func(auth map[string]any){
		"by-id": func(auth map[string]any) {
			delete(auth, "username")
			delete(auth, "user_domain_name")
			auth["user_id"] = userID
		},
		"upper": func(auth map[string]any) { auth["username"] = strings.ToUpper(name) },
		"id-upper": func(auth map[string]any) {
			delete(auth, "username")
			delete(auth, "user_domain_name")
			auth["user_id"] = strings.ToUpper(userID)
		},
	}
	// Spellings MariaDB's collations may compare equal to the user's: never sent.
	unsafe := map[string]func(auth map[string]any){
		"trailing": func(auth map[string]any) { auth["username"] = name + "   " },
		"accented": func(auth map[string]any) { auth["username"] = accented(name) },
		"eszett":   func(auth map[string]any) { auth["username"] = strings.Replace(name, "s", "ß", 1) + "ß" },
		"id-accented": func(auth map[string]any) {
			delete(auth, "username")
			delete(auth, "user_domain_name")
			auth["user_id"] = accented(userID)
		},
	}
	t.Logf("user %q (ID %s) at %s; Keystone itself takes %q and %q for it: %v, %v", name, userID, ks.AuthURL,
		strings.ToUpper(name), name+"   ", logsIn(t, ks, strings.ToUpper(name)), logsIn(t, ks, name+"   "))

	teamA, teamB := NewNamespace(t), NewNamespace(t)
	record := "e2e-refusals-shared-" + RandomSuffix(8)
	t.Cleanup(func() { deleteConfigMap(t, "kube-system", record) })
	clusterID := NewClusterID(t)
	_, logStart := ks.ControllerTokenAnswers(t, 0, "401")
	controllers := map[string]*Controller{}
	for _, ns := range []string{teamA, teamB} {
		controllers[ns] = StartController(t, ControllerOptions{ClusterID: clusterID, Namespaces: []string{ns},
			Args: append(ks.ControllerArgs(MemberCloud), "-keystone-refusals-configmap="+record), Env: ks.ControllerEnv()})
	}
	wrong := func(spelling string) map[string]string {
		yaml := editCloud(t, victim, TenantA, func(c map[string]any) {
			auth := c["auth"].(map[string]any)
			if f, ok := unsafe[spelling]; ok {
				f(auth)
			} else {
				spellings[spelling](auth)
			}
			auth["password"] = "guess-" + RandomSuffix(12)
		})
		return map[string]string{"clouds.yaml": yaml}
	}
	refusedOrHeld := func(n *samplecrdv1.Network) error {
		if c := n.ReadyCondition(); c == nil || !slices.Contains([]string{samplecrdv1.ReasonPasswordRejected, samplecrdv1.ReasonKeystoneAccountHeld}, c.Reason) {
			return fmt.Errorf("Ready is %s", DescribeReady(n))
		}
		return nil
	}
	// A working password (another user's) is used, and its Network says it is one
	// (-tenant-passwords=warn, the default).
	PutCredentialsSecret(t, teamA, "right", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, MemberCloud)})
	CreateTenantNetwork(t, teamA, "right", "10.197.99.0/24", "right", MemberCloud)
	right := WaitNetwork(t, teamA, "right", 90*time.Second, "Ready with PasswordCredentials", func(n *samplecrdv1.Network) error {
		if c := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionPasswordCredentials); !n.IsReady() || c == nil {
			return fmt.Errorf("%s, PasswordCredentials %+v", DescribeReady(n), c)
		}
		return nil
	})
	t.Logf("a working password: %s", meta.FindStatusCondition(right.Status.Conditions, samplecrdv1.ConditionPasswordCredentials).Message)
	WaitEvent(t, teamA, "right", "Warning", samplecrdv1.ReasonPasswordCredentialsInUse, "-tenant-passwords=refuse", 30*time.Second)

	i := 0
	for _, ns := range []string{teamA, teamB} {
		for spelling := range spellings {
			PutCredentialsSecret(t, ns, spelling, wrong(spelling))
			CreateTenantNetwork(t, ns, spelling, fmt.Sprintf("10.197.%d.0/24", i), spelling, TenantA)
			i++
		}
	}
	waitAll := func() (held int) {
		for _, ns := range []string{teamA, teamB} {
			for spelling := range spellings {
				n := WaitNetwork(t, ns, spelling, 90*time.Second, "PasswordRejected or KeystoneAccountHeld", refusedOrHeld)
				if n.ReadyCondition().Reason == samplecrdv1.ReasonKeystoneAccountHeld {
					held++
				}
			}
		}
		return held
	}
	waitAll()
	for spelling := range unsafe {
		PutCredentialsSecret(t, teamB, spelling, wrong(spelling))
		CreateTenantNetwork(t, teamB, spelling, fmt.Sprintf("10.197.%d.0/24", i), spelling, TenantA)
		i++
	}
	for spelling := range unsafe {
		n := WaitNetwork(t, teamB, spelling, 90*time.Second, "CloudsYAMLInvalid", func(n *samplecrdv1.Network) error {
			if c := n.ReadyCondition(); c == nil || c.Reason != samplecrdv1.ReasonCloudsYAMLInvalid {
				return fmt.Errorf("Ready is %s", DescribeReady(n))
			}
			return nil
		})
		t.Logf("spelling %s refused before any request: %s", spelling, n.ReadyCondition().Message)
	}
	for _, ns := range []string{teamA, teamB} { // new versions, new guesses
		for spelling := range spellings {
			PutCredentialsSecret(t, ns, spelling, wrong(spelling))
		}
	}
	Eventually(t, 90*time.Second, time.Second, "every new guess held back", func() error {
		var held float64
		for _, c := range controllers {
			n, _ := c.Metric("network_controller_keystone_token_requests_held_total", "limit="+lockout.HeldAccount)
			held += n
		}
		if held < float64(len(spellings)*2) {
			return fmt.Errorf("%v token requests held", held)
		}
		return nil
	})
	held := waitAll()
	refused, _ := ks.ControllerTokenAnswers(t, logStart, "401")
	t.Logf("%d Secrets in 2 versions naming one user %d ways, read by 2 controllers: Keystone refused %d token requests, %d Networks wait with %s; the shared record holds %d entries",
		2*len(spellings), len(spellings), len(refused), held, samplecrdv1.ReasonKeystoneAccountHeld, len(configMapData(t, "kube-system", record)))
	if len(refused) > lockout.MaxRefusalsInARow {
		t.Errorf("Keystone refused %d token requests for one user, want at most %d", len(refused), lockout.MaxRefusalsInARow)
	}
	if !logsIn(t, ks, name) {
		t.Errorf("user %s no longer logs in with its password: locked out", name)
	}

}

// accented puts an accent on the first letter a to f of s, as MariaDB's accent-blind
// collations would still match.
func accented(s string) string {
	for i, r := range s {
		if r >= 'a' && r <= 'f' {
			return s[:i] + string([]rune("áḃćḋéḟ")[r-'a']) + s[i+1:]
		}
	}
	return "á" + s
}

// authOptionsOf returns the auth options of cloud in ks's clouds.yaml.
func authOptionsOf(t testing.TB, ks Keystone, cloud string) gophercloud.AuthOptions {
	t.Helper()
	ao, _, _, err := clouds.Parse(clouds.WithLocations(ks.CloudsYAML), clouds.WithCloudName(cloud))
	if err != nil {
		t.Fatalf("reading cloud %s from %s: %v", cloud, ks.CloudsYAML, err)
	}
	return ao
}

// configMapData returns the data of a ConfigMap, none when it does not exist.
func configMapData(t testing.TB, namespace, name string) map[string]string {
	t.Helper()
	kube, _ := Clients(t)
	cm, err := kube.CoreV1().ConfigMaps(namespace).Get(Ctx(t, 30*time.Second), name, metav1.GetOptions{})
	if err != nil {
		return nil
	}
	return cm.Data
}

// logsIn reports whether Keystone issues a token for username with the TenantA cloud's
// password.
func logsIn(t testing.TB, ks Keystone, username string) bool {
	t.Helper()
	ao := authOptionsOf(t, ks, TenantA)
	ao.Username = username
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := openstack.AuthenticatedClient(ctx, ao)
	if err != nil && !gophercloud.ResponseCodeIs(err, 401) {
		t.Fatalf("logging in as %q: %v", username, err)
	}
	return err == nil
}
