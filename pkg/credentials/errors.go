package credentials

import (
	"github.com/samplecrd/network-controller/pkg/credentials/lockout"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
)

// Error is why a Network's credentials cannot be used, in words for its status: no
// secret is in it.
type Error = registry.Error

// AccountHeldError is a token request the lockout gate did not send: another refusal
// could get the user locked out.
type AccountHeldError = lockout.AccountHeldError

// KeyCloudsYAML is the key of a credentials Secret that holds its clouds.yaml.
const KeyCloudsYAML = registry.KeyCloudsYAML

// AsError returns err's *Error, if it has one.
func AsError(err error) (*Error, bool) { return registry.AsError(err) }

// IsWaiting reports whether err is a Network waiting for something about to happen (the
// watch of its credentials Secret to sync): it is tried again soon, without a condition.
func IsWaiting(err error) bool { return registry.IsWaiting(err) }
