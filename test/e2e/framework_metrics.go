//go:build e2e

package e2e

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// metricsReaderRole is the ClusterRole of deploy/base/33-clusterrole-metrics-reader.yaml.
const metricsReaderRole = "network-controller-metrics-reader"

// ScraperTokens returns a token of a new ServiceAccount in namespace ns bound to the
// metrics-reader ClusterRole, and one of a ServiceAccount without it. The binding is
// removed at cleanup; the ServiceAccounts go with the namespace.
func ScraperTokens(t *testing.T, ns string) (reader, other string) {
	t.Helper()
	MustKubectl(t, "create", "serviceaccount", "metrics-reader", "-n", ns)
	MustKubectl(t, "create", "serviceaccount", "no-metrics", "-n", ns)
	binding := "e2e-metrics-reader-" + ns
	MustKubectl(t, "create", "clusterrolebinding", binding, "--clusterrole="+metricsReaderRole, "--serviceaccount="+ns+":metrics-reader")
	t.Cleanup(func() {
		kube, _ := Clients(t)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = kube.RbacV1().ClusterRoleBindings().Delete(ctx, binding, metav1.DeleteOptions{})
	})
	reader = strings.TrimSpace(MustKubectl(t, "create", "token", "metrics-reader", "-n", ns, "--duration=1h"))
	other = strings.TrimSpace(MustKubectl(t, "create", "token", "no-metrics", "-n", ns, "--duration=1h"))
	return reader, other
}

// secureMetricsClient trusts any certificate: the controller's is self-signed.
var secureMetricsClient = &http.Client{
	Timeout:   10 * time.Second,
	Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}},
}

// SecureGet GETs url with token as its bearer token (none when empty).
func SecureGet(url, token string) (int, string, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, "", err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := secureMetricsClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), err
}

// CheckSecureMetrics checks that url answers 401 without a token, 403 with other's and
// the metrics with reader's, and returns them.
func CheckSecureMetrics(t *testing.T, url, reader, other string) string {
	t.Helper()
	var body string
	for _, c := range []struct {
		who, token string
		want       int
	}{{"no token", "", http.StatusUnauthorized}, {"a token without the metrics-reader role", other, http.StatusForbidden}, {"a metrics-reader token", reader, http.StatusOK}} {
		code, b, err := SecureGet(url, c.token)
		if err != nil || code != c.want {
			t.Errorf("GET %s with %s = %d (%v) %q, want %d", url, c.who, code, err, LastLines(b, 3), c.want)
		}
		if c.token != "" && strings.Contains(b, c.token) {
			t.Errorf("GET %s with %s: the answer contains the token", url, c.who)
		}
		body = b
	}
	if !strings.Contains(body, "network_controller_leader ") {
		t.Errorf("the metrics-reader's GET %s lacks network_controller_leader:\n%s", url, LastLines(body, 10))
	}
	return body
}

// metricsPort returns the port of a -metrics-bind-address argument.
func metricsPort(t *testing.T, args []string) string {
	t.Helper()
	for _, a := range args {
		if addr, ok := strings.CutPrefix(a, "-metrics-bind-address="); ok {
			if i := strings.LastIndex(addr, ":"); i >= 0 {
				return addr[i+1:]
			}
		}
	}
	t.Fatalf("no -metrics-bind-address in %q", args)
	return ""
}
