package resync

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// The orphan collection's circuit breaker. Crashes and forced removals leave an orphan
// now and then; many at once is what a reused cluster ID looks like (an etcd restore, a
// copied -cluster-id), and then the "orphans" are a live cluster's networks.
//
// It counts per namespace (the one a network's name carries), because namespaces share
// projects (the controller's own, a delegated one): a namespace with more orphans in a
// project than max(orphanBreakerMin, orphanBreakerPercent% of its networks there) has none
// of them collected there, and the other namespaces' are. A reused cluster ID shows in
// every namespace at once, small ones too, each within its own limit; so the orphans of
// the namespaces within their limits must also be within the project's limit together
// (the same formula over all its networks), or none is collected in the project.
const (
	// reasonOrphanCollectionHalted is the Event on Config.EventTarget when the breaker stops a pass.
	reasonOrphanCollectionHalted = "OrphanCollectionHalted"

	orphanBreakerMin     = 10
	orphanBreakerPercent = 10

	// namespacesNamed bounds the namespaces one Event names: Events are kept short.
	namespacesNamed = 5
)

// orphanLimit is the most orphans one pass collects of holders with held networks.
func orphanLimit(held int) int {
	return max(orphanBreakerMin, held*orphanBreakerPercent/100)
}

// tally is what the breaker counted of one namespace, or of a whole project.
type tally struct {
	namespace            string
	orphans, held, limit int
}

// verdict is what the breaker lets a pass collect in a project.
type verdict struct {
	collect []orphan
	// halted are the namespaces over their own limit, by name.
	halted []tally
	// whole is set when the other namespaces' orphans together are over the project's
	// limit: nothing is collected.
	whole *tally
}

func (v verdict) stopped() bool { return len(v.halted) > 0 || v.whole != nil }

// judge decides which of the orphans of the project store holds a pass may collect.
func judge(store *neutronstore.Store, orphans []orphan) verdict {
	held := map[string]int{}
	for _, uid := range store.Owners() {
		for _, n := range store.CachedNetworks(uid) {
			held[namespaceOf(n)]++
		}
	}
	byNamespace := map[string][]orphan{}
	for _, o := range orphans {
		byNamespace[namespaceOf(o.network)] = append(byNamespace[namespaceOf(o.network)], o)
	}
	var v verdict
	for _, namespace := range slices.Sorted(maps.Keys(byNamespace)) {
		found := byNamespace[namespace]
		if limit := orphanLimit(held[namespace]); len(found) > limit {
			v.halted = append(v.halted, tally{namespace: namespace, orphans: len(found), held: held[namespace], limit: limit})
			continue
		}
		v.collect = append(v.collect, found...)
	}
	if limit := orphanLimit(store.Len()); len(v.collect) > limit {
		v.whole = &tally{orphans: len(v.collect), held: store.Len(), limit: limit}
		v.collect = nil
	}
	return v
}

// namespaceOf is the namespace of n's owner, "" when its name does not say.
func namespaceOf(n neutron.Network) string {
	namespace, _ := neutron.OwnerNamespace(n)
	return namespace
}

// haltOrphanCollection says, in the log and an Event on the controller's own object, what
// the breaker kept the pass from collecting in the project, and why.
func (s *Resyncer) haltOrphanCollection(logger klog.Logger, project registry.Project, v verdict) {
	for _, h := range v.halted {
		logger.Info("Orphan collection halted for a namespace: more of its orphans than one pass may collect; were its Networks force-removed, or is this cluster ID shared with another cluster (an etcd restore, a copied -cluster-id)?",
			"namespace", h.namespace, "orphans", h.orphans, "networks", h.held, "limit", h.limit, "clusterID", s.cfg.ClusterID)
	}
	if v.whole != nil {
		logger.Info("Orphan collection halted: more orphans than one pass may collect in the project, though each namespace is within its own limit; is this cluster ID shared with another cluster (an etcd restore, a copied -cluster-id)?",
			"orphans", v.whole.orphans, "networks", v.whole.held, "limit", v.whole.limit, "clusterID", s.cfg.ClusterID)
	}
	if s.cfg.EventTarget == nil {
		return
	}
	var what string
	if v.whole != nil {
		what = fmt.Sprintf("Orphan collection halted in %s: %d of its %d networks of cluster ID %s have no Network object, in namespaces each within its own limit, "+
			"more than one pass may collect there (%d); nothing is collected there", project.Place, v.whole.orphans, v.whole.held, s.cfg.ClusterID, v.whole.limit)
		if len(v.halted) > 0 {
			what += "; namespaces over their own limits besides: " + describeHalted(v.halted)
		}
	} else {
		what = fmt.Sprintf("Orphan collection halted in %s for the namespaces with more networks of cluster ID %s without a Network object than one pass may collect: %s; "+
			"the other namespaces' orphans there are collected", project.Place, s.cfg.ClusterID, describeHalted(v.halted))
	}
	s.cfg.Recorder.Eventf(s.cfg.EventTarget, corev1.EventTypeWarning, reasonOrphanCollectionHalted,
		"%s. If another cluster uses cluster ID %s (an etcd restore, a copied -cluster-id), give this controller its own; "+
			"if they really are orphans (Networks force-removed), delete them by hand (openstack network list --tags %s; names k8s_<namespace>_...)",
		what, s.cfg.ClusterID, neutron.ClusterTag(s.cfg.ClusterID))
}

// describeHalted names the first namespaces over their limits with their counts.
func describeHalted(halted []tally) string {
	var parts []string
	for _, h := range halted[:min(len(halted), namespacesNamed)] {
		name := h.namespace
		if name == "" {
			name = "(none in the network's name)"
		}
		parts = append(parts, fmt.Sprintf("%s (%d of its %d networks, limit %d)", name, h.orphans, h.held, h.limit))
	}
	if n := len(halted) - namespacesNamed; n > 0 {
		parts = append(parts, fmt.Sprintf("%d more", n))
	}
	return strings.Join(parts, ", ")
}
