package neutronstore

import (
	"errors"
	"net/http"
	"strings"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// What a failed call tells the store about what Neutron holds now.

// outcomeUnknown reports whether a failed create may have been carried out all the same:
// Neutron gave no definite answer (no reply, a reset connection, a timeout or a 5xx). A
// call held back by its project's budget was never sent.
func outcomeUnknown(err error) bool {
	_, throttled := neutron.AsThrottled(err)
	return !throttled && neutron.KindOf(err) == neutron.KindUnavailable
}

// overlapsAnotherSubnet reports whether Neutron refused a subnet create because the
// network already has a subnet whose CIDR overlaps (400 InvalidInput; only the message
// tells this refusal from the others).
func overlapsAnotherSubnet(err error) bool {
	var ne *neutron.Error
	return errors.As(err, &ne) && ne.Code == http.StatusBadRequest &&
		strings.Contains(ne.Message, "overlaps with another subnet")
}

// asConflict returns err as a retryable conflict: Neutron refused the request because of
// what it already holds, not because of the request itself.
func asConflict(err error) error {
	var ne *neutron.Error
	if !errors.As(err, &ne) {
		return err
	}
	conflict := *ne
	conflict.Kind = neutron.KindConflict
	return &conflict
}

// alreadyAttached reports whether Neutron refused to attach subnetID to a router because
// the router already has a port on it (400 BadRequest; only the message tells this refusal
// from the others).
func alreadyAttached(err error, subnetID string) bool {
	var ne *neutron.Error
	return errors.As(err, &ne) && ne.Code == http.StatusBadRequest &&
		strings.Contains(ne.Message, "already has a port on subnet "+subnetID)
}

// routerInUse reports whether err is Neutron's refusal to delete a router with interfaces.
func routerInUse(err error) bool {
	var ne *neutron.Error
	return errors.As(err, &ne) && ne.Type == "RouterInUse"
}
