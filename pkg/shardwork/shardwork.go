// Package shardwork runs the shards a replica holds (-shards): it takes its share of the
// shards' Leases (pkg/shard's Holder) and, for each shard held, starts the informers of its
// Networks, takes its share of the cloud's rates and the ownership of its namespaces, and
// gives them up cleanly when the shard goes. The controller's workers, its resync and its
// Neutron store serve every shard held; they start with the first one.
package shardwork

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	coordinationclient "k8s.io/client-go/kubernetes/typed/coordination/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	clientset "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	informers "github.com/samplecrd/network-controller/pkg/client/informers/externalversions"
	"github.com/samplecrd/network-controller/pkg/metrics"
	"github.com/samplecrd/network-controller/pkg/scope"
	"github.com/samplecrd/network-controller/pkg/shard"
)

// Config is what the shards' work is done with.
type Config struct {
	// Shards is the number of shards; Namespaces the watched namespaces (with some, the
	// informers are one per namespace, as a namespace is in one shard whole).
	Shards     int
	Namespaces scope.Namespaces
	// The Leases: their namespace and the name every replica shares, this replica's
	// identity, and the timings of -lease-*.
	LeaseNamespace, LeaseName, Identity, FieldManager string
	LeaseDuration, RenewDeadline, RetryPeriod         time.Duration

	Leases   coordinationclient.CoordinationV1Interface
	Networks clientset.Interface
	// Informers get the informers of each shard taken; Ownership lets the resync and the
	// credentials guard act for its namespaces.
	Informers *scope.Informers
	Ownership *scope.Ownership
	Metrics   *metrics.Metrics

	// Share sets the rates to the share of held shards; SetLeading says whether any is held.
	Share      func(held int)
	SetLeading func(bool)
	// Unfill makes the Neutron stores fill again on their next use.
	Unfill func()
	// WaitForPasses returns once no pass runs of a Network whose namespace matches.
	WaitForPasses func(ctx context.Context, matches func(namespace string) bool)
	// QueuedByNamespace counts the keys queued, by namespace.
	QueuedByNamespace func() map[string]int
}

// work is the work of each shard this replica holds (shard.Work).
type work struct {
	cfg         Config
	newInformer func(key string, s shard.Shard) cache.SharedIndexInformer
	// lead starts the controller's work, at the first shard taken.
	lead     func()
	leadOnce sync.Once

	mu   sync.Mutex
	held int
}

var _ shard.Work = (*work)(nil)

// Run holds this replica's share of the shards until ctx is done, running lead from the
// first shard taken on; it returns lead's error once the shards are released.
func Run(ctx context.Context, cfg Config, lead func(context.Context) error) error {
	var leadErr error
	leadDone := make(chan struct{})
	served := &atomic.Bool{}
	w := &work{cfg: cfg, newInformer: newShardInformerFunc(cfg, served),
		lead: func() {
			go func() {
				defer close(leadDone)
				leadErr = lead(ctx)
			}()
		},
	}
	holder := shard.NewHolder(shard.Config{
		Namespace: cfg.LeaseNamespace, Name: cfg.LeaseName, Shards: cfg.Shards, Identity: cfg.Identity, FieldManager: cfg.FieldManager,
		LeaseDuration: cfg.LeaseDuration, RenewDeadline: cfg.RenewDeadline, RetryPeriod: cfg.RetryPeriod,
	}, cfg.Leases, w)
	cfg.Metrics.ExportShards(func() []metrics.ShardState { return w.states(holder.Held()) })
	holder.OnSelectorServed(func(ok bool) {
		served.Store(ok)
		cfg.Metrics.SetShardSelectorServed(ok)
		if !ok {
			klog.FromContext(ctx).Info("The apiserver does not filter Networks by shard (feature gate ShardedListAndWatch off, or an older apiserver): "+
				"each replica is sent every Network and drops those of the shards it does not hold", "shards", cfg.Shards)
		}
	})
	cfg.Share(0)
	holder.Run(ctx)
	w.leadOnce.Do(func() { close(leadDone) })
	<-leadDone
	return leadErr
}

// Start takes the shard up: its share of the rates first, then its Networks' informers,
// which queue them as they list them. The stores fill again on their next use: the shard's
// last holder may have created resources this replica's stores have not listed, and a
// Network reconciled from such a store would create them twice.
func (w *work) Start(ctx context.Context, s shard.Shard) error {
	w.changeHeld(+1)
	w.cfg.Unfill()
	w.leadOnce.Do(w.lead)
	var started []string
	for _, key := range w.cfg.Informers.ShardKeys(s) {
		err := w.cfg.Informers.Start(ctx, key, w.newInformer(key, s))
		if err != nil {
			w.stopInformers(append(started, key))
			w.changeHeld(-1)
			return fmt.Errorf("starting the Network informers of shard %s: %w", s, err)
		}
		started = append(started, key)
	}
	w.cfg.Ownership.Hold(s)
	return nil
}

// Stop gives the shard up: nothing acts for its namespaces any more, its informers stop,
// and it returns once the passes of its Networks under way have finished, so that the
// next holder starts after them. Its keys still queued find no Network in the cache and
// are dropped.
func (w *work) Stop(ctx context.Context, s shard.Shard) {
	w.cfg.Ownership.Release(s)
	w.stopInformers(w.cfg.Informers.ShardKeys(s))
	w.cfg.WaitForPasses(ctx, s.Holds)
	w.changeHeld(-1)
}

// Lost exits: the shard's passes under way cannot be called back, and the new holder's
// would run beside them.
func (w *work) Lost(s shard.Shard) {
	klog.Background().Error(errors.New("shard lost"), "Lost a shard's Lease; exiting so that no pass of its Networks runs beside the new holder's", "shard", s)
	klog.FlushAndExit(klog.ExitFlushTimeout, 1)
}

func (w *work) stopInformers(keys []string) {
	for _, key := range keys {
		w.cfg.Metrics.AddCachedNetworks(-w.cfg.Informers.Stop(key))
	}
}

func (w *work) changeHeld(delta int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.held += delta
	w.cfg.Share(w.held)
	w.cfg.SetLeading(w.held > 0)
}

// states are the shards' states for the metrics: which are held here, and the Networks
// of those in the cache and in the queue.
func (w *work) states(held []shard.Shard) []metrics.ShardState {
	queued := w.cfg.QueuedByNamespace()
	out := make([]metrics.ShardState, w.cfg.Shards)
	for i, s := range shard.All(w.cfg.Shards) {
		out[i].Shard = s.String()
	}
	for _, s := range held {
		st := &out[s.Index]
		st.Held = true
		for _, key := range w.cfg.Informers.ShardKeys(s) {
			st.Networks += w.cfg.Informers.Len(key)
		}
	}
	for namespace, n := range queued {
		if st := &out[shard.Of(namespace, w.cfg.Shards).Index]; st.Held {
			st.Queued += n
		}
	}
	return out
}

// newShardInformerFunc returns what makes the informer of key in shard s: one of all
// namespaces filtered by the shard's range, or, with some namespaces watched, one of the
// namespace key.
func newShardInformerFunc(cfg Config, served *atomic.Bool) func(key string, s shard.Shard) cache.SharedIndexInformer {
	return func(key string, s shard.Shard) cache.SharedIndexInformer {
		if !cfg.Namespaces.All() {
			return informers.NewSharedInformerFactoryWithOptions(cfg.Networks, 0, informers.WithNamespace(key)).Samplecrd().V1().Networks().Informer()
		}
		return scope.NewShardNetworkInformer(cfg.Networks, s, served.Load())
	}
}
