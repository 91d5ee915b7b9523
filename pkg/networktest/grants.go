package networktest

import (
	"context"
	"errors"
	"slices"

	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/credentials/grants"
)

// Grants grants every namespace the same powers in the controller's own cloud, delegates
// the projects of Delegations to every namespace, and tells its user when they change.
type Grants struct {
	Powers grants.Powers
	// Delegations are the identities with a Secret, by name; NotDelegating, those without.
	Delegations   map[string]grants.Delegation
	NotDelegating []string
	// Former are identities with a Secret that no longer select the namespace.
	Former  map[string]grants.Delegation
	changed func(namespace string)
}

func (g *Grants) OwnCloud(string) (grants.Powers, error) { return g.Powers, nil }
func (g *Grants) HasSynced() bool                        { return true }
func (g *Grants) OnChange(changed func(namespace string)) error {
	g.changed = changed
	return nil
}

func (g *Grants) Delegation(_, identity string) (grants.Delegation, error) {
	if d, ok := g.Delegations[identity]; ok {
		return d, nil
	}
	if slices.Contains(g.NotDelegating, identity) {
		return grants.Delegation{}, grants.ErrNotDelegating
	}
	return g.Former[identity], grants.ErrNotSelected
}

func (g *Grants) DelegatesTo(secret cache.ObjectName) []string {
	var names []string
	for name, d := range g.Delegations {
		if d.Secret == secret {
			names = append(names, name)
		}
	}
	return names
}

// Set changes the powers, as an operator's change of an identity selecting namespace would.
func (g *Grants) Set(namespace string, powers grants.Powers) {
	g.Powers = powers
	if g.changed != nil {
		g.changed(namespace)
	}
}

// NoSecrets is a cluster without Secrets.
type NoSecrets struct{}

func (NoSecrets) Version(_ context.Context, namespace, name string) (string, error) {
	return "", &credentials.Error{Reason: samplecrdv1.ReasonCredentialsSecretNotFound, Message: "Secret " + namespace + "/" + name + " does not exist"}
}
func (NoSecrets) Data(context.Context, string, string) (map[string][]byte, string, error) {
	return nil, "", errors.New("no Secrets in this test")
}
