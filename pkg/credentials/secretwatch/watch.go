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
	"k8s.io/apimachinery/pkg/util/wait"
	apiwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// secretWatch is the watch of one Secret: an informer of its metadata, by name and label.
type secretWatch struct {
	store      cache.Store
	controller cache.Controller
	access     access
	// users, bounded and refused are guarded by Watches.mu.
	users int
	// bounded: the watch counts against the limits (a Network's, not a ClusterIdentity's).
	bounded bool
	// refused: the apiserver refused the watch, which is stopped; its Secret is re-checked.
	refused bool
	// backoff is the state of the waits between re-checks of its Secret (zero before its
	// first refusal), kept across a grant so that a grant of list without watch does not
	// restart the watch at the first wait.
	backoff wait.Backoff
	cancel  context.CancelFunc
	once    sync.Once
}

// newWatch makes, without starting it, the watch of secret.
func (w *Watches) newWatch(secret cache.ObjectName) *secretWatch {
	wt := &secretWatch{}
	resource := w.client.Resource(secrets).Namespace(secret.Namespace)
	// A refusal stops the watch at once: its reflector would otherwise ask again every
	// few seconds for as long as the Secret is named.
	refusal := func(err error) {
		if apierrors.IsForbidden(err) {
			wt.access.forbidden.Store(true)
			w.refuse(secret, wt)
		}
	}
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
			selectSecret(&options, secret)
			list, err := resource.List(ctx, options)
			refusal(err)
			return list, err
		},
		WatchFuncWithContext: func(ctx context.Context, options metav1.ListOptions) (apiwatch.Interface, error) {
			selectSecret(&options, secret)
			wi, err := resource.Watch(ctx, options)
			refusal(err)
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

// selectSecret narrows a list or watch to the one Secret, by name, while it is labelled.
func selectSecret(options *metav1.ListOptions, secret cache.ObjectName) {
	options.FieldSelector = fields.OneTermEqualSelector("metadata.name", secret.Name).String()
	options.LabelSelector = labels.SelectorFromSet(labels.Set{samplecrdv1.CredentialsLabel: "true"}).String()
}

// access is whether the apiserver refused a watch's list or watch request; read without
// Watches.mu by State, which waits for the first answer. A watch refused once stays
// refused: a grant found later starts a new watch.
type access struct {
	forbidden atomic.Bool
}

func (a *access) denied() bool { return a.forbidden.Load() }
