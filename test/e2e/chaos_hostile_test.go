//go:build e2e

package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// chaosHostile is a namespace of a chaos run that only tries to wear the controller down:
// a Secret of chaosFloodClouds clouds of made-up users (each version a new token flood
// Keystone refuses), and Networks naming Secrets that do not exist. None of it may reach
// Neutron, and the chaos namespace converges as if it were not there.
type chaosHostile struct {
	ns       string
	ks       Keystone
	versions int
}

const (
	chaosFloodClouds   = 40
	chaosMadeUpSecrets = 20
	chaosFloodSecret   = "flood"
)

// newChaosHostile makes the hostile namespace, its Secret and its Networks.
func newChaosHostile(t *testing.T, ks Keystone) *chaosHostile {
	h := &chaosHostile{ns: NewNamespace(t), ks: ks}
	h.rewrite(t)
	for i := range chaosFloodClouds {
		CreateTenantNetwork(t, h.ns, fmt.Sprintf("flood-%d", i), "10.196.0.0/24", chaosFloodSecret, fmt.Sprintf("c%d", i))
	}
	for i := range chaosMadeUpSecrets {
		CreateTenantNetwork(t, h.ns, fmt.Sprintf("made-up-%d", i), "10.196.1.0/24", fmt.Sprintf("made-up-%d", i), "c0")
	}
	return h
}

// rewrite writes a new version of the flood Secret: new made-up users, a new flood.
func (h *chaosHostile) rewrite(t *testing.T) {
	h.versions++
	PutCredentialsSecret(t, h.ns, chaosFloodSecret, map[string]string{"clouds.yaml": h.ks.MadeUpUsersCloudsYAML(t, chaosFloodClouds, "guess")})
}

// check waits for every hostile Network to say why its credentials cannot be used, and
// finds nothing of the namespace in Neutron.
func (h *chaosHostile) check(t *testing.T) {
	t.Helper()
	_, nets := Clients(t)
	refused := []string{samplecrdv1.ReasonPasswordRejected, samplecrdv1.ReasonKeystoneAccountHeld, samplecrdv1.ReasonCredentialsSecretNotFound}
	reasons := map[string]int{}
	Eventually(t, 2*time.Minute, time.Second, "every hostile Network refused", func() error {
		list, err := nets.SamplecrdV1().Networks(h.ns).List(Ctx(t, 30*time.Second), metav1.ListOptions{})
		if err != nil {
			return err
		}
		clear(reasons)
		for _, n := range list.Items {
			c := n.ReadyCondition()
			if c == nil || !slices.Contains(refused, c.Reason) {
				return fmt.Errorf("%s/%s: %s", h.ns, n.Name, DescribeReady(&n))
			}
			reasons[c.Reason]++
		}
		return nil
	})
	var out struct {
		Networks []struct{ Name string } `json:"networks"`
	}
	MustNeutron(t, "GET", "v2.0/networks?fields=name", nil, &out, 200)
	for _, n := range out.Networks {
		if strings.HasPrefix(n.Name, "k8s_"+h.ns+"_") {
			t.Errorf("Neutron has network %s of the hostile namespace", n.Name)
		}
	}
	t.Logf("hostile namespace %s: %d versions of a Secret of %d clouds of made-up users, %d Networks naming made-up Secrets; reasons %v",
		h.ns, h.versions, chaosFloodClouds, chaosMadeUpSecrets, reasons)
}
