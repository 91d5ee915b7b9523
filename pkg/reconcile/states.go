package reconcile

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/metrics"
)

// reasonPending labels Networks without a Ready condition for their current generation:
// new, or changed and not reconciled yet.
const reasonPending = "Pending"

// StateOf is how network_controller_networks counts network.
func StateOf(network *samplecrdv1.Network) metrics.NetworkState {
	if IsPaused(network) {
		// Not looked at: what Ready says may no longer hold, and no alert should wait on it.
		return metrics.NetworkState{Status: string(metav1.ConditionUnknown), Reason: samplecrdv1.ReasonPaused}
	}
	c := network.ReadyCondition()
	if c == nil || c.ObservedGeneration != network.Generation {
		return metrics.NetworkState{Status: string(metav1.ConditionUnknown), Reason: reasonPending}
	}
	return metrics.NetworkState{Status: string(c.Status), Reason: c.Reason}
}

// NetworkStates are the states a Network can be in: exported at zero before the first.
func NetworkStates() []metrics.NetworkState {
	states := []metrics.NetworkState{{Status: string(metav1.ConditionUnknown), Reason: reasonPending},
		{Status: string(metav1.ConditionUnknown), Reason: samplecrdv1.ReasonPaused}}
	for _, reason := range samplecrdv1.ReadyReasons {
		status := metav1.ConditionFalse
		if reason == samplecrdv1.ReasonProvisioned || reason == samplecrdv1.ReasonImported {
			status = metav1.ConditionTrue
		}
		states = append(states, metrics.NetworkState{Status: string(status), Reason: reason})
	}
	return states
}
