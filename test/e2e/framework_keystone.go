//go:build e2e

package e2e

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gophercloud/gophercloud/v2/openstack"
	"github.com/gophercloud/gophercloud/v2/openstack/config/clouds"
	"github.com/gophercloud/gophercloud/v2/openstack/identity/v3/tokens"
)

// MemberCloud is the clouds.yaml entry of the member-role user of project k8s that
// hack/local-keystone.sh makes; the controller runs as it in the Keystone tests.
const MemberCloud = "k8s"

// Keystone describes the local Keystone that hack/e2e.sh started.
type Keystone struct {
	AuthURL    string
	CloudsYAML string
	AccessLog  string
	// TokenLifetime is Keystone's [token] expiration.
	TokenLifetime time.Duration
}

// LocalKeystone returns the local Keystone from the environment hack/e2e.sh sets, and
// fails the test when it is missing in CI (skips otherwise).
func LocalKeystone(t testing.TB) Keystone {
	t.Helper()
	k := Keystone{
		AuthURL:    os.Getenv("KEYSTONE_AUTH_URL"),
		CloudsYAML: os.Getenv("KEYSTONE_CLOUDS_YAML"),
		AccessLog:  os.Getenv("KEYSTONE_ACCESS_LOG"),
	}
	secs, err := strconv.Atoi(os.Getenv("KEYSTONE_TOKEN_EXPIRATION"))
	if os.Getenv("E2E_LOCAL_KEYSTONE") != "1" || k.AuthURL == "" || k.CloudsYAML == "" || k.AccessLog == "" || err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("the local Keystone is not configured in CI (E2E_LOCAL_KEYSTONE, KEYSTONE_AUTH_URL, KEYSTONE_CLOUDS_YAML, KEYSTONE_ACCESS_LOG, KEYSTONE_TOKEN_EXPIRATION): run hack/e2e.sh")
		}
		t.Skip("the local Keystone is not configured: run hack/e2e.sh")
	}
	k.TokenLifetime = time.Duration(secs) * time.Second
	return k
}

// ControllerArgs are the flags that make a controller authenticate through clouds.yaml
// as cloud instead of talking to the noauth Neutron.
func (k Keystone) ControllerArgs(cloud string) []string {
	// An empty -neutron-endpoint after the framework's default leaves -os-cloud alone.
	return []string{"-neutron-endpoint=", "-os-cloud=" + cloud}
}

// ControllerEnv points clouds.yaml lookups at the file hack/local-keystone.sh wrote.
func (k Keystone) ControllerEnv() []string {
	return []string{"OS_CLIENT_CONFIG_FILE=" + k.CloudsYAML}
}

// TokenRequest is one token Keystone issued, as its request log shows it.
type TokenRequest struct {
	At        time.Time
	UserAgent string
}

// ControllerTokenRequests returns the tokens Keystone issued (POST /v3/auth/tokens, 201)
// to clients whose user agent names the controller, from line skip of the request log on,
// and the number of lines read so far.
func (k Keystone) ControllerTokenRequests(t testing.TB, skip int) ([]TokenRequest, int) {
	t.Helper()
	f, err := os.Open(k.AccessLog)
	if err != nil {
		t.Fatalf("reading Keystone's request log: %v", err)
	}
	defer f.Close()
	var out []TokenRequest
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		n++
		if n <= skip {
			continue
		}
		line := sc.Text()
		// Format (hack/local-keystone.sh): 23/Nov/2026:10:13:02 +0000 ADDR METHOD URI STATUS MSECS ua="..."
		fields := strings.Fields(line)
		if len(fields) < 7 || fields[3] != "POST" || fields[4] != "/v3/auth/tokens" || fields[5] != "201" {
			continue
		}
		ua := line[strings.Index(line, `ua="`)+4:]
		if !strings.Contains(ua, "network-controller") {
			continue
		}
		at, err := time.Parse("02/Jan/2006:15:04:05 -0700", fields[0]+" "+fields[1])
		if err != nil {
			t.Fatalf("Keystone request log line %q: %v", line, err)
		}
		out = append(out, TokenRequest{At: at, UserAgent: strings.TrimSuffix(ua, `"`)})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading Keystone's request log: %v", err)
	}
	return out, n
}

// ProjectID returns the ID of cloud's project, from a token of its own (whose request
// does not carry the controller's user agent).
func (k Keystone) ProjectID(t testing.TB, cloud string) string {
	t.Helper()
	ctx := Ctx(t, 60*time.Second)
	ao, _, _, err := clouds.Parse(clouds.WithLocations(k.CloudsYAML), clouds.WithCloudName(cloud))
	if err != nil {
		t.Fatalf("reading cloud %s from %s: %v", cloud, k.CloudsYAML, err)
	}
	pc, err := openstack.AuthenticatedClient(ctx, ao)
	if err != nil {
		t.Fatalf("authenticating as cloud %s: %v", cloud, err)
	}
	res, ok := pc.GetAuthResult().(tokens.CreateResult)
	if !ok {
		t.Fatalf("unexpected auth result %T", pc.GetAuthResult())
	}
	p, err := res.ExtractProject()
	if err != nil || p == nil {
		t.Fatalf("project of cloud %s: %v", cloud, err)
	}
	return p.ID
}
