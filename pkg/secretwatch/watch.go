package secretwatch

import (
	"context"
	"sync"
	"sync/atomic"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	apiwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// secretWatch is the watch of one Secret: an informer of its metadata, by name and label.
type secretWatch struct {
	store      cache.Store
	controller cache.Controller
	access     access
	users      int
	// bounded: the watch counts against its namespace's limit (a Network's, not a
	// ClusterIdentity's).
	bounded bool
	cancel  context.CancelFunc
	once    sync.Once
}

// newWatch makes, without starting it, the watch of secret.
func (w *Watches) newWatch(secret cache.ObjectName) *secretWatch {
	wt := &secretWatch{}
	selected := func(options *metav1.ListOptions) {
		options.FieldSelector = fields.OneTermEqualSelector("metadata.name", secret.Name).String()
		options.LabelSelector = labels.SelectorFromSet(labels.Set{samplecrdv1.CredentialsLabel: "true"}).String()
	}
	resource := w.client.Resource(secrets).Namespace(secret.Namespace)
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
			selected(&options)
			list, err := resource.List(ctx, options)
			wt.access.record(err, func() { w.accessGranted(secret) })
			return list, err
		},
		WatchFuncWithContext: func(ctx context.Context, options metav1.ListOptions) (apiwatch.Interface, error) {
			selected(&options)
			wi, err := resource.Watch(ctx, options)
			wt.access.record(err, func() { w.accessGranted(secret) })
			return wi, err
		},
	}
	wt.store, wt.controller = cache.NewInformerWithOptions(cache.InformerOptions{
		// Streams the first list as a watch where the client can (WatchListClient), as
		// client-go's own informers do.
		ListerWatcher: cache.ToListWatcherWithWatchListSemantics(lw, w.client),
		ObjectType:    &metav1.PartialObjectMetadata{},
		Handler:       w.handle(),
		Transform:     w.transform,
	})
	return wt
}

func (wt *secretWatch) start(ctx context.Context) {
	wt.once.Do(func() {
		ctx, wt.cancel = context.WithCancel(ctx)
		go wt.controller.RunWithContext(ctx)
	})
}

func (wt *secretWatch) stop() {
	if wt.cancel != nil {
		wt.cancel()
	}
}

// access is what the apiserver last answered a watch's list or watch request: allowed
// or forbidden.
type access struct {
	forbidden atomic.Bool
}

func (a *access) denied() bool { return a.forbidden.Load() }

// record notes the outcome of a request; granted is called when a request succeeds
// after one was forbidden.
func (a *access) record(err error, granted func()) {
	switch {
	case apierrors.IsForbidden(err):
		a.forbidden.Store(true)
	case err == nil:
		if a.forbidden.Swap(false) {
			granted()
		}
	}
}
