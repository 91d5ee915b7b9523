// Package secretwatch watches the credentials Secrets that Networks name, each on its
// own: the metadata of one Secret, by name, and only while it carries the credentials
// label. A watch starts when the first Network names the Secret and stops when the last
// one stops naming it.
//
// One Secret at a time, by name, because that is all a namespace has to grant: a
// RoleBinding of the credentials ClusterRole, which resourceNames may narrow to the one
// Secret (the apiserver authorizes a list or watch by the name its field selector names).
// The controller holds no cluster-wide right on Secrets, and its memory grows with the
// credentials Secrets in use, not with the cluster's Secrets.
package secretwatch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

var secrets = corev1.SchemeGroupVersion.WithResource("secrets")

// syncWait bounds how long State waits for a new watch's first list: a Network naming a
// Secret for the first time is usually synced just after its watch started.
const syncWait = 5 * time.Second

// Watches are the watches of the credentials Secrets that Networks name.
//
// Watches is safe for concurrent use.
type Watches struct {
	client    metadata.Interface
	transform cache.TransformFunc

	mu       sync.Mutex
	ctx      context.Context // set by Start; nil before
	handlers []cache.ResourceEventHandler
	granted  []func(secret cache.ObjectName)
	users    map[cache.ObjectName]cache.ObjectName // Network -> Secret
	watches  map[cache.ObjectName]*secretWatch
	// The bounds (limits.go): held counts per namespace the Networks' entries in watches
	// (running or refused), live only the running ones, liveTotal all of those; waiting
	// counts the Networks naming each Secret over a bound.
	limits    Limits
	held      map[string]int
	live      map[string]int
	liveTotal int
	waiting   map[cache.ObjectName]int
	// refused are the Secrets whose watch the apiserver refused, asked for again now and
	// then (recheck.go).
	refused map[cache.ObjectName]*recheck
	rechecks
}

// New returns Watches reading through client, within limits; transform, when not nil,
// trims each Secret's metadata before it is kept.
func New(client metadata.Interface, transform cache.TransformFunc, limits Limits) *Watches {
	return &Watches{client: client, transform: transform, limits: limits,
		users: map[cache.ObjectName]cache.ObjectName{}, watches: map[cache.ObjectName]*secretWatch{},
		held: map[string]int{}, live: map[string]int{}, waiting: map[cache.ObjectName]int{},
		refused: map[cache.ObjectName]*recheck{}, rechecks: defaultRechecks()}
}

// AddEventHandler hands the events of every watch to handler: a labelled Secret
// appearing, changing, and going (deleted, or its label removed). Call it before Start.
func (w *Watches) AddEventHandler(handler cache.ResourceEventHandler) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.handlers = append(w.handlers, handler)
}

// OnAccessGranted tells f when the controller may read a Secret it could not before: the
// namespace bound the credentials ClusterRole since. Call it before Start.
func (w *Watches) OnAccessGranted(f func(secret cache.ObjectName)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.granted = append(w.granted, f)
}

// Start starts the watches asked for so far, and those asked for later, and the re-checks
// of refused ones, until ctx ends.
func (w *Watches) Start(ctx context.Context) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ctx = ctx
	for _, wt := range w.watches {
		wt.start(ctx)
	}
	go w.recheckLoop(ctx)
}

// Use records which Secret the Network names, none when secret is the zero name, and
// starts or stops watches to match.
func (w *Watches) Use(network, secret cache.ObjectName) {
	w.mu.Lock()
	defer w.mu.Unlock()
	old, had := w.users[network]
	if had && old == secret {
		return
	}
	if had {
		delete(w.users, network)
		w.releaseLocked(old)
	}
	if secret == (cache.ObjectName{}) {
		return
	}
	w.users[network] = secret
	wt := w.watches[secret]
	if wt == nil {
		if !w.allowsLocked(network, secret) {
			w.waiting[secret]++
			return
		}
		wt = w.addWatchLocked(secret, bounded(network), 0)
	}
	wt.users++
}

// addWatchLocked makes and, once started, starts the watch of secret for users Networks;
// a bounded one counts against the limits.
func (w *Watches) addWatchLocked(secret cache.ObjectName, bounded bool, users int) *secretWatch {
	wt := w.newWatch(secret)
	wt.bounded, wt.users = bounded, users
	if bounded {
		w.held[secret.Namespace]++
		w.countLiveLocked(secret.Namespace, 1)
	}
	w.watches[secret] = wt
	if w.ctx != nil {
		wt.start(w.ctx)
	}
	return wt
}

func (w *Watches) releaseLocked(secret cache.ObjectName) {
	wt := w.watches[secret]
	if wt == nil {
		if w.waiting[secret]--; w.waiting[secret] <= 0 {
			delete(w.waiting, secret)
		}
		return
	}
	if wt.users--; wt.users > 0 {
		return
	}
	wt.stop()
	delete(w.watches, secret)
	delete(w.refused, secret)
	if wt.bounded {
		decrement(w.held, secret.Namespace)
		if !wt.refused {
			w.countLiveLocked(secret.Namespace, -1)
		}
		w.admitWaitingLocked()
	}
}

// countLiveLocked adds delta to the running watches of namespace; live holds only the
// namespaces with some, so that its length is the number of namespaces sharing the total.
func (w *Watches) countLiveLocked(namespace string, delta int) {
	w.liveTotal += delta
	w.live[namespace] += delta
	if w.live[namespace] <= 0 {
		delete(w.live, namespace)
	}
}

func decrement(m map[string]int, key string) {
	if m[key]--; m[key] <= 0 {
		delete(m, key)
	}
}

// Get returns the metadata of a labelled Secret as its watch last saw it (before it was
// refused, for a refused one).
func (w *Watches) Get(secret cache.ObjectName) (metav1.Object, bool) {
	w.mu.Lock()
	wt := w.watches[secret]
	w.mu.Unlock()
	if wt == nil {
		return nil, false
	}
	obj, exists, err := wt.store.GetByKey(secret.String())
	if err != nil || !exists {
		return nil, false
	}
	m, ok := obj.(metav1.Object)
	return m, ok
}

// Errors of State.
var (
	// ErrNotGranted: the controller may not read the Secret (no RoleBinding of the
	// credentials ClusterRole in its namespace).
	ErrNotGranted = errors.New("not granted")
	// ErrNotLabelled: the Secret exists without the credentials label.
	ErrNotLabelled = errors.New("not labelled")
	// ErrNotFound: there is no such Secret.
	ErrNotFound = errors.New("not found")
	// ErrNotWatched: no Network names the Secret, or its watch has not listed yet.
	ErrNotWatched = errors.New("not watched yet")
)

// State returns the resourceVersion of the labelled Secret, waiting a moment for a new
// watch's first list. Otherwise it returns ErrNotGranted, ErrNotLabelled, ErrNotFound or
// ErrNotWatched, or the error of the read that tells an unlabelled Secret from a missing
// one (a GET of its metadata, made only then).
func (w *Watches) State(ctx context.Context, secret cache.ObjectName) (string, error) {
	w.mu.Lock()
	wt := w.watches[secret]
	w.mu.Unlock()
	if wt == nil {
		return "", w.notWatched(secret)
	}
	_ = wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, syncWait, true, func(context.Context) (bool, error) {
		return wt.controller.HasSynced() || wt.access.denied(), nil
	})
	if wt.access.denied() {
		return "", ErrNotGranted
	}
	if !wt.controller.HasSynced() {
		return "", ErrNotWatched
	}
	if m, ok := w.Get(secret); ok {
		return m.GetResourceVersion(), nil
	}
	m, err := w.Fetch(ctx, secret)
	switch {
	case apierrors.IsNotFound(err):
		return "", ErrNotFound
	case apierrors.IsForbidden(err):
		return "", ErrNotGranted
	case err != nil:
		return "", err
	case !Labelled(m):
		return "", ErrNotLabelled
	}
	// Labelled just now; its watch will show it in a moment and queue its users.
	return "", ErrNotWatched
}

// Fetch reads the Secret's metadata, never its data, from the API.
func (w *Watches) Fetch(ctx context.Context, secret cache.ObjectName) (*metav1.PartialObjectMetadata, error) {
	m, err := w.client.Resource(secrets).Namespace(secret.Namespace).Get(ctx, secret.Name, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading the metadata of Secret %s: %w", secret, err)
	}
	return m, nil
}

// Labelled reports whether a Secret carries the credentials label.
func Labelled(secret metav1.Object) bool {
	return secret.GetLabels()[samplecrdv1.CredentialsLabel] == "true"
}

// Watched returns how many Secrets are watched now, refused ones not counted.
func (w *Watches) Watched() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.watches) - len(w.refused)
}

// handle forwards a watch's events to the handlers.
func (w *Watches) handle() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, isInInitialList bool) {
			for _, h := range w.handlersNow() {
				h.OnAdd(obj, isInInitialList)
			}
		},
		UpdateFunc: func(old, new any) {
			for _, h := range w.handlersNow() {
				h.OnUpdate(old, new)
			}
		},
		DeleteFunc: func(obj any) {
			for _, h := range w.handlersNow() {
				h.OnDelete(obj)
			}
		},
	}
}

func (w *Watches) handlersNow() []cache.ResourceEventHandler {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.handlers
}
