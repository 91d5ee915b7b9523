package main

import (
	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// dropUnreadFromCache is the Network informer's transform: it removes from each cached
// Network what the controller never reads, managedFields (about half of a small
// object), before the object is stored. The controller's full updates send no
// managedFields, which the apiserver then keeps as they are.
//
// Annotations stay, kubectl's last-applied-configuration among them: a full update of an
// object without them would delete them.
func dropUnreadFromCache(obj any) (any, error) {
	if network, ok := obj.(*samplecrdv1.Network); ok {
		// The informer owns the freshly decoded object; no one else holds it yet.
		network.ManagedFields = nil
	}
	return obj, nil
}
