package resync

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// The orphan collection's circuit breaker. Crashes and forced removals leave an orphan
// now and then; many at once is what a reused cluster ID looks like (an etcd restore, a
// copied -cluster-id), and then the "orphans" are a live cluster's networks.
//
// Namespaces share projects (the controller's own, a delegated one), and a tenant can
// force-remove its own Networks, so no namespace's orphans may stop another's. The rule,
// per project and pass, with limit(n) = max(orphanBreakerMin, orphanBreakerPercent% of n):
//
//  1. A namespace (the one a network's name carries) with more orphans there than
//     limit(its networks there) halts alone: none of its orphans is collected.
//  2. The project halts, and nothing is collected there, when more orphans than
//     limit(the project's networks of this cluster) are beyond the namespace with the
//     most: those of the other namespaces within their limits, and those whose name
//     carries no namespace (this controller names every network after one). That is what
//     a reused cluster ID looks like: a live cluster's networks in many namespaces at
//     once, or named otherwise. A namespace's limit is at most the project's, so the
//     orphans of one namespace, or of two, never halt the project: it takes three at
//     least (two at their limits and one orphan of a third, say).
//  3. Everything else is collected.
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

// tally is what the breaker counted of one namespace.
type tally struct {
	namespace            string
	orphans, held, limit int
}

// projectTally is what the breaker counted of a whole project, for rule 2.
type projectTally struct {
	// orphans counts those of the namespaces within their limits (namespaces of them)
	// and those whose name carries no namespace (unnamed of them).
	orphans, namespaces, unnamed int
	// largest is the namespace within its limit with the most orphans, not counted in
	// beyond.
	largest tally
	// beyond is what is judged against limit: orphans less largest's.
	beyond, held, limit int
}

// verdict is what the breaker lets a pass collect in a project.
type verdict struct {
	collect []orphan
	// halted are the namespaces over their own limit, by name.
	halted []tally
	// whole is set when the project halted (rule 2): nothing is collected.
	whole *projectTally
}

func (v verdict) stopped() bool { return len(v.halted) > 0 || v.whole != nil }

// judge decides which of the orphans of the project store holds a pass may collect, by
// the rule above.
func judge(store *neutronstore.Store, orphans []orphan) verdict {
	held := map[string]int{}
	for _, uid := range store.Owners() {
		for _, n := range store.CachedNetworks(uid) {
			held[namespaceOf(n)]++
		}
	}
	byNamespace := map[string][]orphan{}
	var unnamed []orphan
	for _, o := range orphans {
		namespace, ok := neutron.OwnerNamespace(o.network)
		if !ok {
			unnamed = append(unnamed, o)
			continue
		}
		byNamespace[namespace] = append(byNamespace[namespace], o)
	}
	var v verdict
	project := projectTally{unnamed: len(unnamed), held: store.Len(), limit: orphanLimit(store.Len())}
	for _, namespace := range slices.Sorted(maps.Keys(byNamespace)) {
		found := byNamespace[namespace]
		t := tally{namespace: namespace, orphans: len(found), held: held[namespace], limit: orphanLimit(held[namespace])}
		if t.orphans > t.limit {
			v.halted = append(v.halted, t)
			continue
		}
		v.collect = append(v.collect, found...)
		project.namespaces++
		project.orphans += t.orphans
		if t.orphans > project.largest.orphans {
			project.largest = t
		}
	}
	v.collect = append(v.collect, unnamed...)
	project.orphans += len(unnamed)
	project.beyond = project.orphans - project.largest.orphans
	if project.beyond > project.limit {
		v.whole = &project
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
func (s *Resyncer) haltOrphanCollection(logger klog.Logger, project credentials.Project, v verdict) {
	for _, h := range v.halted {
		logger.Info("Orphan collection halted for a namespace: more of its orphans than one pass may collect; were its Networks force-removed, or is this cluster ID shared with another cluster (an etcd restore, a copied -cluster-id)?",
			"namespace", h.namespace, "orphans", h.orphans, "networks", h.held, "limit", h.limit, "clusterID", s.cfg.ClusterID)
	}
	if w := v.whole; w != nil {
		logger.Info("Orphan collection halted in the project: orphans in many namespaces, or in networks whose names carry none, more beyond the namespace with the most than one pass may collect; is this cluster ID shared with another cluster (an etcd restore, a copied -cluster-id)?",
			"orphans", w.orphans, "namespaces", w.namespaces, "unnamed", w.unnamed, "largestNamespace", w.largest.namespace, "largestOrphans", w.largest.orphans,
			"beyond", w.beyond, "networks", w.held, "limit", w.limit, "clusterID", s.cfg.ClusterID)
	}
	if s.cfg.EventTarget == nil {
		return
	}
	var what string
	if w := v.whole; w != nil {
		var where []string
		if w.namespaces > 0 {
			where = append(where, fmt.Sprintf("%d in %d namespaces each within its own limit", w.orphans-w.unnamed, w.namespaces))
		}
		if w.unnamed > 0 {
			where = append(where, fmt.Sprintf("%d in networks whose names name none", w.unnamed))
		}
		what = fmt.Sprintf("Orphan collection halted in %s: %d of its %d networks of cluster ID %s have no Network object (%s)",
			project.Place, w.orphans, w.held, s.cfg.ClusterID, strings.Join(where, ", "))
		what += fmt.Sprintf("; the %d beyond the namespace with the most", w.beyond)
		if w.largest.orphans > 0 {
			what += fmt.Sprintf(" (%s, %d)", w.largest.namespace, w.largest.orphans)
		} else {
			what += " (none)"
		}
		what += fmt.Sprintf(" are more than one pass may collect there (%d); nothing is collected there", w.limit)
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
		parts = append(parts, fmt.Sprintf("%s (%d of its %d networks, limit %d)", h.namespace, h.orphans, h.held, h.limit))
	}
	if n := len(halted) - namespacesNamed; n > 0 {
		parts = append(parts, fmt.Sprintf("%d more", n))
	}
	return strings.Join(parts, ", ")
}
