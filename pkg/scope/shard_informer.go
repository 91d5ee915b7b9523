package scope

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	clientset "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	"github.com/samplecrd/network-controller/pkg/shard"
)

// NewShardNetworkInformer returns an informer of the Networks of every namespace in shard
// s. Its lists and watches ask the apiserver for the shard's range (shardSelector); where
// the apiserver does not filter by it (served false: the ShardedListAndWatch feature gate
// off, or an older apiserver, which ignore the field), the informer drops what it is sent
// of other shards before its cache sees it, so that the cache, the handlers and the
// counts are the shard's alike.
func NewShardNetworkInformer(client clientset.Interface, s shard.Shard, served bool) cache.SharedIndexInformer {
	selector := s.Selector().String()
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			opts.ShardSelector = selector
			list, err := client.SamplecrdV1().Networks(metav1.NamespaceAll).List(ctx, opts)
			if err != nil || served {
				return list, err
			}
			kept := list.Items[:0]
			for _, n := range list.Items {
				if s.Holds(n.Namespace) {
					kept = append(kept, n)
				}
			}
			list.Items = kept
			return list, nil
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			opts.ShardSelector = selector
			w, err := client.SamplecrdV1().Networks(metav1.NamespaceAll).Watch(ctx, opts)
			if err != nil || served {
				return w, err
			}
			// A Network's namespace never changes: an event is in the shard or not, and
			// bookmarks and errors are the stream's own.
			return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
				n, ok := e.Object.(*samplecrdv1.Network)
				return e, !ok || e.Type == watch.Bookmark || e.Type == watch.Error || s.Holds(n.Namespace)
			}), nil
		},
	}
	return cache.NewSharedIndexInformerWithOptions(cache.ToListWatcherWithWatchListSemantics(lw, client), &samplecrdv1.Network{},
		cache.SharedIndexInformerOptions{Indexers: cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}})
}
