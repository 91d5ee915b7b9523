//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// passwordAuth is a password cloud's auth section, read from the local clouds.yaml.
type passwordAuth struct {
	AuthURL           string `json:"auth_url"`
	Username          string `json:"username"`
	Password          string `json:"password"`
	ProjectName       string `json:"project_name"`
	UserDomainName    string `json:"user_domain_name"`
	ProjectDomainName string `json:"project_domain_name"`
}

func (k Keystone) passwordAuthOf(t testing.TB, cloud string) passwordAuth {
	t.Helper()
	var file struct {
		Clouds map[string]struct {
			Auth passwordAuth `json:"auth"`
		} `json:"clouds"`
	}
	if err := yaml.Unmarshal([]byte(k.CloudsYAMLOf(t, cloud)), &file); err != nil {
		t.Fatal(err)
	}
	return file.Clouds[cloud].Auth
}

// authLines is the auth section's lines, indented under a cloud, with extra lines
// (already indented) after them.
func (a passwordAuth) lines(authURL string, extra ...string) string {
	return "      auth_url: " + authURL + "\n      username: " + a.Username + "\n      password: " + a.Password +
		"\n      project_name: " + a.ProjectName + "\n      user_domain_name: " + a.UserDomainName +
		"\n      project_domain_name: " + a.ProjectDomainName + "\n" + strings.Join(extra, "")
}

// A suite of hostile clouds.yaml files, each crafted so that a lenient or second decoding
// would authenticate somewhere else than the checked URL, or read a file of the
// controller's host. None makes the controller contact the attacker's listener or read a
// file (a file that exists and one that does not give the same message), each gets a
// reason, and another namespace's Network is Ready meanwhile.
func TestHostileCloudsYAML(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	attacker := NewListener(t)
	evil := "http://" + attacker.Addr + "/v3"
	ns, good := NewNamespace(t), NewNamespace(t)
	auth := ks.passwordAuthOf(t, TenantA)
	allowed := auth.AuthURL
	_, attackerPort, _ := strings.Cut(attacker.Addr, ":")
	cloud := func(body string) string { return "clouds:\n  team-a:\n" + body }
	withAuth := func(authBody string, extra ...string) string {
		return cloud("    auth:\n" + authBody + "    region_name: RegionOne\n" + strings.Join(extra, ""))
	}
	// Valid but for its size: a password of 70 KiB.
	huge := withAuth(strings.Replace(auth.lines(allowed), auth.Password, strings.Repeat("x", 70<<10), 1))

	cases := []struct{ name, clouds, reason string }{
		{"case-variant", withAuth(auth.lines(allowed, "      AUTH_URL: "+evil+"\n")), samplecrdv1.ReasonCloudsYAMLInvalid},
		{"capitalised", withAuth(strings.Replace(auth.lines(evil), "auth_url", "Auth_Url", 1)), samplecrdv1.ReasonCloudsYAMLInvalid},
		{"duplicate-key", withAuth(auth.lines(allowed, "      auth_url: "+evil+"\n")), samplecrdv1.ReasonCloudsYAMLInvalid},
		// Another cloud's entry, reused by an alias or merged with a merge key: the checked
		// entry and the used one would be different nodes.
		{"anchor-alias", "clouds:\n  base: &base\n    auth:\n" + auth.lines(evil) + "  team-a: *base\n", samplecrdv1.ReasonCloudsYAMLInvalid},
		{"merge-key", "clouds:\n  base: &base\n    auth:\n" + auth.lines(evil) + "  team-a:\n    <<: *base\n    region_name: RegionOne\n", samplecrdv1.ReasonCloudsYAMLInvalid},
		{"kelvin-key", withAuth(auth.lines(allowed), "    \u212aey: /etc/ssl/private/ssl-cert-snakeoil.key\n"), samplecrdv1.ReasonCloudsYAMLInvalid},
		{"file-existing", withAuth(auth.lines(allowed), "    cacert: /etc/passwd\n"), samplecrdv1.ReasonCredentialsFileRefused},
		{"file-missing", withAuth(auth.lines(allowed), "    cacert: /nonexistent/ca.pem\n"), samplecrdv1.ReasonCredentialsFileRefused},
		{"profile", withAuth(auth.lines(allowed), "    profile: evil\n"), samplecrdv1.ReasonCredentialsFileRefused},
		{"userinfo", withAuth(auth.lines(strings.Replace(allowed, "http://", "http://admin:admin@", 1))), samplecrdv1.ReasonAuthURLNotAllowed},
		{"other-port", withAuth(auth.lines(strings.Replace(allowed, ":"+portOf(t, allowed), ":"+attackerPort, 1))), samplecrdv1.ReasonAuthURLNotAllowed},
		{"trailing-dot", withAuth(auth.lines("http://localhost.:" + attackerPort + "/v3")), samplecrdv1.ReasonAuthURLNotAllowed},
		{"evil", withAuth(auth.lines(evil)), samplecrdv1.ReasonAuthURLNotAllowed},
		{"huge", huge, samplecrdv1.ReasonCloudsYAMLInvalid},
	}
	for _, tc := range cases {
		PutCredentialsSecret(t, ns, tc.name, map[string]string{"clouds.yaml": tc.clouds})
	}
	PutCredentialsSecret(t, good, "openstack", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})

	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns, good}, Args: ks.ControllerArgs(MemberCloud), Env: ks.ControllerEnv()})
	for i, tc := range cases {
		CreateTenantNetwork(t, ns, tc.name, fmt.Sprintf("10.167.%d.0/24", i), tc.name, TenantA)
	}
	CreateTenantNetwork(t, good, "fine", "10.168.0.0/24", "openstack", TenantA)

	messages := map[string]string{}
	for _, tc := range cases {
		n := WaitReason(t, ns, tc.name, 60*time.Second, metav1.ConditionFalse, tc.reason)
		msg := n.ReadyCondition().Message
		messages[tc.name] = msg
		if strings.Contains(msg, auth.Password) || strings.Contains(msg, "admin:admin") {
			t.Errorf("%s: message %q shows a secret", tc.name, msg)
		}
		if len(msg) > 1000 {
			t.Errorf("%s: message of %d bytes", tc.name, len(msg))
		}
		t.Logf("%s: %s: %s", tc.name, tc.reason, msg)
	}
	WaitReady(t, good, "fine", 90*time.Second)
	// Whether a path exists on the controller's host is not told.
	if a, b := strings.ReplaceAll(messages["file-existing"], "file-existing", "X"), strings.ReplaceAll(messages["file-missing"], "file-missing", "X"); a != b {
		t.Errorf("an existing and a missing file give different messages:\n%s\n%s", a, b)
	}
	if n := attacker.Connections(); n != 0 {
		t.Errorf("the controller connected %d times to the attacker's address %s", n, attacker.Addr)
	}
	if strings.Contains(ctrl.Logs(), auth.Password) {
		t.Error("the controller's log shows the password")
	}
	for _, tc := range cases {
		DeleteNetwork(t, ns, tc.name)
	}
	for _, tc := range cases {
		WaitGone(t, ns, tc.name, 30*time.Second)
	}
	DeleteNetwork(t, good, "fine")
	WaitGone(t, good, "fine", 60*time.Second)
}

// portOf returns the port of an http URL with an explicit port.
func portOf(t testing.TB, url string) string {
	t.Helper()
	host, _, _ := strings.Cut(strings.TrimPrefix(url, "http://"), "/")
	_, port, ok := strings.Cut(host, ":")
	if !ok {
		t.Fatalf("URL %s has no port", url)
	}
	return port
}

// Hundreds of Networks name clouds that a large clouds.yaml does not have: each gets
// CloudNotFound with a short message, and the controller's heap stays bounded (one parse
// of the file, not one per Network), as its own metric shows.
func TestManyNetworksNamingMissingClouds(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t)
	ns, good := NewNamespace(t), NewNamespace(t)
	auth := ks.passwordAuthOf(t, TenantA)
	var b strings.Builder
	b.WriteString("clouds:\n")
	for i := range 60 {
		fmt.Fprintf(&b, "  cloud-%02d:\n    auth:\n      auth_url: %s\n      username: user-%02d\n      password: %s\n      project_name: p\n      user_domain_name: Default\n      project_domain_name: Default\n    region_name: RegionOne\n",
			i, auth.AuthURL, i, strings.Repeat("p", 800))
	}
	if b.Len() < 50<<10 || b.Len() > 64<<10 {
		t.Fatalf("the large clouds.yaml has %d bytes, want 50 to 64 KiB", b.Len())
	}
	PutCredentialsSecret(t, ns, "big", map[string]string{"clouds.yaml": b.String()})
	PutCredentialsSecret(t, good, "openstack", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})
	ctrl := StartController(t, ControllerOptions{Namespaces: []string{ns, good}, Args: ks.ControllerArgs(MemberCloud), Env: ks.ControllerEnv()})
	ctrl.WaitReadyz(60 * time.Second)
	heapBefore, err := ctrl.Metric("go_memstats_heap_inuse_bytes")
	if err != nil {
		t.Fatal(err)
	}

	const networks = 300
	for i := range networks {
		CreateTenantNetwork(t, ns, fmt.Sprintf("m-%03d", i), "10.169.0.0/24", "big", fmt.Sprintf("missing-%03d", i))
	}
	CreateTenantNetwork(t, good, "fine", "10.169.1.0/24", "openstack", TenantA)
	_, nets := Clients(t)
	Eventually(t, 3*time.Minute, time.Second, "every Network naming a missing cloud to get CloudNotFound", func() error {
		list, err := nets.SamplecrdV1().Networks(ns).List(Ctx(t, 30*time.Second), metav1.ListOptions{})
		if err != nil {
			return err
		}
		done := 0
		for _, n := range list.Items {
			c := n.ReadyCondition()
			if c == nil || c.Reason != samplecrdv1.ReasonCloudNotFound {
				continue
			}
			done++
			if len(c.Message) > 1000 || !strings.Contains(c.Message, "and 55 more") {
				return fmt.Errorf("%s: message of %d bytes %q, want a short one listing 5 clouds and 55 more", n.Name, len(c.Message), c.Message)
			}
		}
		if done != networks {
			return fmt.Errorf("%d of %d Networks have CloudNotFound", done, networks)
		}
		return nil
	})
	WaitReady(t, good, "fine", 90*time.Second)
	heap, err := ctrl.Metric("go_memstats_heap_inuse_bytes")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("heap in use: %.1f MiB before the Networks, %.1f MiB after %d Networks naming missing clouds of a %d-byte clouds.yaml",
		heapBefore/(1<<20), heap/(1<<20), networks, b.Len())
	const bound = 32 << 20
	if heap > bound {
		t.Errorf("heap in use %.1f MiB, want under %d MiB", heap/(1<<20), bound>>20)
	}
}
