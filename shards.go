package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	clientset "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	informers "github.com/samplecrd/network-controller/pkg/client/informers/externalversions"
	"github.com/samplecrd/network-controller/pkg/credentials/registry"
	"github.com/samplecrd/network-controller/pkg/endpoints"
	"github.com/samplecrd/network-controller/pkg/leaderelect"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/scope"
	"github.com/samplecrd/network-controller/pkg/shard"
)

// shardWork is the work of each shard this replica holds (shard.Work): the informers of
// its Networks, this replica's share of the cloud's rates, and the ownership that lets the
// resync and the credentials guard act for its namespaces. The controller's workers, its
// resync and its Neutron store serve every shard held; they start with the first one.
type shardWork struct {
	count       int
	informers   *scope.Informers
	newInformer func(key string, s shard.Shard) cache.SharedIndexInformer
	ownership   *scope.Ownership
	controller  *Controller
	tenants     *registry.Registry
	// share sets the rates to the share of held shards; setLeading says whether any is held.
	share      func(held int)
	setLeading func(bool)
	// lead starts the controller's work, at the first shard taken.
	lead     func()
	leadOnce sync.Once

	mu   sync.Mutex
	held int
}

var _ shard.Work = (*shardWork)(nil)

// Start takes the shard up: its share of the rates first, then its Networks' informers,
// which queue them as they list them. The stores fill again on their next use: the shard's
// last holder may have created resources this replica's stores have not listed, and a
// Network reconciled from such a store would create them twice.
func (w *shardWork) Start(ctx context.Context, s shard.Shard) error {
	w.changeHeld(+1)
	w.tenants.Unfill()
	w.leadOnce.Do(w.lead)
	var started []string
	for _, key := range w.informers.ShardKeys(s) {
		err := w.informers.Start(ctx, key, w.newInformer(key, s))
		if err != nil {
			w.stopInformers(append(started, key))
			w.changeHeld(-1)
			return fmt.Errorf("starting the Network informers of shard %s: %w", s, err)
		}
		started = append(started, key)
	}
	w.ownership.Hold(s)
	return nil
}

// Stop gives the shard up: nothing acts for its namespaces any more, its informers stop,
// and it returns once the passes of its Networks under way have finished, so that the
// next holder starts after them. Its keys still queued find no Network in the cache and
// are dropped.
func (w *shardWork) Stop(ctx context.Context, s shard.Shard) {
	w.ownership.Release(s)
	w.stopInformers(w.informers.ShardKeys(s))
	w.controller.running.waitFor(ctx, s.Holds)
	w.changeHeld(-1)
}

// Lost exits: the shard's passes under way cannot be called back, and the new holder's
// would run beside them.
func (w *shardWork) Lost(s shard.Shard) {
	klog.Background().Error(errors.New("shard lost"), "Lost a shard's Lease; exiting so that no pass of its Networks runs beside the new holder's", "shard", s)
	klog.FlushAndExit(klog.ExitFlushTimeout, 1)
}

func (w *shardWork) stopInformers(keys []string) {
	for _, key := range keys {
		w.controller.metrics.AddCachedNetworks(-w.informers.Stop(key))
	}
}

func (w *shardWork) changeHeld(delta int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.held += delta
	w.share(w.held)
	w.setLeading(w.held > 0)
}

// states are the shards' states for the metrics: which are held here, and the Networks
// of those in the cache and in the queue.
func (w *shardWork) states(held []shard.Shard) []metrics.ShardState {
	queued := w.controller.workqueue.order.QueuedByNamespace()
	out := make([]metrics.ShardState, w.count)
	for i, s := range shard.All(w.count) {
		out[i].Shard = s.String()
	}
	for _, s := range held {
		st := &out[s.Index]
		st.Held = true
		for _, key := range w.informers.ShardKeys(s) {
			st.Networks += w.informers.Len(key)
		}
	}
	for namespace, n := range queued {
		if st := &out[shard.Of(namespace, w.count).Index]; st.Held {
			st.Queued += n
		}
	}
	return out
}

// newShardInformerFunc returns what makes the informer of key in shard s: one of all
// namespaces filtered by the shard's range, or, with -namespace, one of the namespace key
// (a namespace is in one shard whole).
func newShardInformerFunc(opts options, client clientset.Interface, served *atomic.Bool) func(key string, s shard.Shard) cache.SharedIndexInformer {
	return func(key string, s shard.Shard) cache.SharedIndexInformer {
		if !opts.namespaces.All() {
			return informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(key)).Samplecrd().V1().Networks().Informer()
		}
		return scope.NewShardNetworkInformer(client, s, served.Load())
	}
}

// leadShards holds this replica's share of the shards until ctx is done, running lead
// from the first shard taken on; it returns lead's error once the shards are released.
func leadShards(ctx context.Context, opts options, kube kubeClients, probes *endpoints.Probes, m *metrics.Metrics, share func(held int),
	controller *Controller, networkInformers *scope.Informers, ownership *scope.Ownership, tenants *registry.Registry, lead func(context.Context) error) error {
	var leadErr error
	leadDone := make(chan struct{})
	served := &atomic.Bool{}
	work := &shardWork{count: opts.shards, informers: networkInformers, newInformer: newShardInformerFunc(opts, kube.networks, served),
		ownership: ownership, controller: controller, tenants: tenants, share: share,
		setLeading: func(leading bool) {
			probes.SetLeading(leading)
			m.SetLeader(leading)
		},
		lead: func() {
			go func() {
				defer close(leadDone)
				leadErr = lead(ctx)
			}()
		},
	}
	if err := holdShards(ctx, opts, kube.core, m, work, served); err != nil {
		return err
	}
	work.leadOnce.Do(func() { close(leadDone) })
	<-leadDone
	return leadErr
}

// holdShards runs the shards' Holder until ctx is done: every replica takes its share of
// the shards and works on their Networks, and gives them up cleanly when it stops. work
// has its controller, informers and ownership; the rest is set here.
func holdShards(ctx context.Context, opts options, kubeClient kubernetes.Interface, m *metrics.Metrics, work *shardWork, served *atomic.Bool) error {
	logger := klog.FromContext(ctx)
	identity, err := leaderelect.Identity()
	if err != nil {
		return err
	}
	holder := shard.NewHolder(shard.Config{
		Namespace: opts.leaseNamespace, Name: opts.leaseName, Shards: opts.shards, Identity: identity, FieldManager: fieldManager,
		LeaseDuration: opts.leaseDuration, RenewDeadline: opts.leaseRenewDeadline, RetryPeriod: opts.leaseRetryPeriod,
	}, kubeClient.CoordinationV1(), work)
	m.ExportShards(func() []metrics.ShardState { return work.states(holder.Held()) })
	holder.OnSelectorServed(func(ok bool) {
		served.Store(ok)
		m.SetShardSelectorServed(ok)
		if !ok {
			logger.Info("The apiserver does not filter Networks by shard (feature gate ShardedListAndWatch off, or an older apiserver): "+
				"each replica is sent every Network and drops those of the shards it does not hold", "shards", opts.shards)
		}
	})
	work.share(0)
	holder.Run(ctx)
	return nil
}
