package grants

import "fmt"

// Enforcement says what becomes of a power already in effect once no grant allows it
// any more, in the manner of Pod Security Admission's modes: an operator rolls a
// restriction out in Warn, reads what would break, grants it, then switches to Enforce.
// No mode makes anything new without a grant, and none removes what keeps data: a Retain
// Network's mark stays, and its deletion waits for the grant or deletionPolicy Delete.
type Enforcement string

const (
	// Warn keeps a power in effect without a grant (a share, an interface on an existing
	// router, an import, a QoS policy) and reports it.
	Warn Enforcement = "warn"
	// Enforce withdraws it: the share is deleted, the interface removed, the import
	// refused, the QoS policy replaced by what Neutron gives a new network (the
	// project's default policy, or none).
	Enforce Enforcement = "enforce"
)

// Enforcements are the modes, the default first.
var Enforcements = []Enforcement{Warn, Enforce}

// ParseEnforcement returns the mode s names.
func ParseEnforcement(s string) (Enforcement, error) {
	for _, e := range Enforcements {
		if string(e) == s {
			return e, nil
		}
	}
	return "", fmt.Errorf("unknown grant enforcement %q: want warn or enforce", s)
}

// Power names, as the metric of powers kept without a grant labels them.
const (
	PowerRetain         = "retain"
	PowerSharedWith     = "sharedWith"
	PowerExistingRouter = "existingRouter"
	PowerImport         = "import"
	PowerQoSPolicy      = "qosPolicy"
)

// PowerNames are every power a grant gives.
var PowerNames = []string{PowerRetain, PowerSharedWith, PowerExistingRouter, PowerImport, PowerQoSPolicy}
