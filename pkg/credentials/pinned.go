package credentials

import (
	"fmt"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A Network's resources stay in the project and region they were made in: credentials
// that now lead elsewhere are refused, not followed.

// checkPinned refuses place when the Network's resources are in another project or
// region (own is the controller's own cloud's place).
func checkPinned(network *samplecrdv1.Network, place, own neutron.Place) error {
	pinned, ok := pinnedPlace(network, own)
	switch {
	case !ok:
	case pinned.ProjectID != place.ProjectID:
		return &registry.Error{Reason: samplecrdv1.ReasonCredentialsProjectChanged, Message: fmt.Sprintf(
			"%s now lead to project %s, but this Network's Neutron resources are in project %s (%s); "+
				"point spec.cloudCredentialsRef at credentials of project %s again: nothing is done in the other project",
			credentialsOf(network), orNone(place.ProjectID), orNone(pinned.ProjectID), pinnedBy(network), orNone(pinned.ProjectID))}
	case pinned.Region != "" && pinned.Region != place.Region:
		return &registry.Error{Reason: samplecrdv1.ReasonCredentialsRegionChanged, Message: fmt.Sprintf(
			"%s now lead to region %q, but this Network's Neutron resources are in region %q (status.region); "+
				"point spec.cloudCredentialsRef at credentials of region %q again: nothing is done in the other region",
			credentialsOf(network), place.Region, pinned.Region, pinned.Region)}
	}
	return nil
}

// pinnedPlace returns the project and region the Network's resources were created in,
// if any were: status.projectID and status.region, or the controller's own for a Network
// whose status names a network but no project (realised before projects were recorded,
// or in a Neutron without authentication), or the project its finalizer's write pinned
// (samplecrdv1.AnnotationProject) for one whose first pass has not written its status.
// A region of "" is not pinned: the status was written before regions were recorded, and
// the next write records it.
func pinnedPlace(network *samplecrdv1.Network, own neutron.Place) (neutron.Place, bool) {
	switch {
	case network.Status.ProjectID != "":
		return neutron.Place{ProjectID: network.Status.ProjectID, Region: network.Status.Region}, true
	case network.Status.NetworkID != "":
		return neutron.Place{ProjectID: own.ProjectID, Region: network.Status.Region}, true
	}
	if project := network.Annotations[samplecrdv1.AnnotationProject]; project != "" {
		return neutron.Place{ProjectID: project}, true
	}
	return neutron.Place{}, false
}

// pinnedBy names what pinned the Network's project, for messages.
func pinnedBy(network *samplecrdv1.Network) string {
	if network.Status.ProjectID == "" && network.Status.NetworkID == "" {
		return "annotation " + samplecrdv1.AnnotationProject
	}
	return "status.projectID"
}

// PinnedTo reports whether the Network's resources are in place: its credentials still
// lead where they were made (own is the controller's own cloud's place).
func PinnedTo(network *samplecrdv1.Network, place, own neutron.Place) bool {
	pinned, ok := pinnedPlace(network, own)
	return ok && pinned.ProjectID == place.ProjectID && (pinned.Region == "" || pinned.Region == place.Region)
}

func orNone(projectID string) string {
	if projectID == "" {
		return "(none: Neutron without authentication)"
	}
	return projectID
}
