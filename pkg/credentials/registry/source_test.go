package registry

import (
	"strings"
	"testing"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// A ClusterIdentity's Secret is read and parsed as a tenant's is; what is wrong with it is
// said naming the identity, since only the operator can fix it, and Check says the same
// without authenticating.
func TestAnIdentitysSecretIsCheckedAsATenantsAndNamedForTheOperator(t *testing.T) {
	f := newRegistryFixture(t, nil)
	f.keystone.passwords["alice"] = "pw"
	f.secrets.put("ops", "team-a-prod", "1", cloudsYAMLFor("alice", "pw"))
	good := Source{Secret: cache.NewObjectName("ops", "team-a-prod"), Cloud: "c", Identity: "team-a-prod"}
	if err := f.registry.Check(f.ctx, good); err != nil {
		t.Fatalf("Check of a good Secret: %v", err)
	}
	if n := f.keystone.attemptsOf("alice"); n != 0 {
		t.Errorf("Check authenticated %d times, want 0", n)
	}
	tenant, err := f.registry.Resolve(f.ctx, key("team-a", "n"), &good)
	if err != nil || tenant.Place.ProjectID != "project-alice" {
		t.Fatalf("Resolve through the identity: %+v, %v; want the project of the identity's user", tenant.Place, err)
	}

	wrongCloud := good
	wrongCloud.Cloud = "prod"
	e := wantReason(t, f.registry.Check(f.ctx, wrongCloud), samplecrdv1.ReasonCloudNotFound)
	if !strings.HasPrefix(e.Message, "ClusterIdentity team-a-prod cannot be used, ask the cluster's operator: ") {
		t.Errorf("message %q does not name the identity first", e.Message)
	}
	_, err = f.registry.Resolve(f.ctx, key("team-a", "m"), &Source{Secret: cache.NewObjectName("ops", "gone"), Cloud: "c", Identity: "team-b"})
	if e := wantReason(t, err, samplecrdv1.ReasonCredentialsSecretNotFound); !strings.Contains(e.Message, "ClusterIdentity team-b") {
		t.Errorf("message %q does not name the identity", e.Message)
	}
}
