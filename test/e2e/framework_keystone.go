//go:build e2e

package e2e

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// MemberCloud is the clouds.yaml entry of the member-role user of project k8s that
// hack/local-keystone.sh makes; the controller runs as it in the Keystone tests.
const MemberCloud = "k8s"

// Keystone describes the local Keystone that hack/e2e.sh started.
type Keystone struct {
	AuthURL    string
	CloudsYAML string
	AccessLog  string
	// NeutronLog is the log of the Keystone-authenticated neutron-server, one line per request.
	NeutronLog string
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
		NeutronLog: os.Getenv("NEUTRON_KEYSTONE_LOG"),
	}
	secs, err := strconv.Atoi(os.Getenv("KEYSTONE_TOKEN_EXPIRATION"))
	if os.Getenv("E2E_LOCAL_KEYSTONE") != "1" || k.AuthURL == "" || k.CloudsYAML == "" || k.AccessLog == "" || k.NeutronLog == "" || err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("the local Keystone is not configured in CI (E2E_LOCAL_KEYSTONE, KEYSTONE_AUTH_URL, KEYSTONE_CLOUDS_YAML, KEYSTONE_ACCESS_LOG, NEUTRON_KEYSTONE_LOG, KEYSTONE_TOKEN_EXPIRATION): run hack/e2e.sh")
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
