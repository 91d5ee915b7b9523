package secretwatch

import (
	"errors"
	"fmt"

	"k8s.io/client-go/tools/cache"
)

// Each watch costs the controller memory and goroutines, and an apiserver watch, whether
// the Secret exists or not; a namespace's Networks could name thousands of made-up
// Secrets. So watches for Networks are bounded per namespace and in all; a Network over
// a bound waits (State says ErrOverLimit) and gets its watch when one is released.
// ClusterIdentities' Secrets, the operator's, are not counted.
//
// The total is shared, so that no namespace can use it up for the others: once it is
// reached, a namespace holding fewer watches than its fair share, the total divided by
// the namespaces holding watches (itself included), at least 1, still gets one. So the
// watches may pass the total, by the shares of the namespaces that came late, but never
// twice the total: past that every Secret waits. A watch the apiserver refused holds no
// place in the total (recheck.go); it still counts against its own namespace's bound,
// which bounds what the re-checks cost.

// Limits bound the watches of Networks' Secrets.
type Limits struct {
	// PerNamespace bounds the Secrets of one namespace watched at once; 0 is no bound.
	PerNamespace int
	// Total bounds them in all, shared as above; 0 is no bound.
	Total int
}

// ErrOverLimit: the Secret is not watched, because its namespace, or the controller,
// watches as many Secrets as its limits allow.
var ErrOverLimit = errors.New("over the limit of watched Secrets")

// OverLimitError says which limit a Secret is over.
type OverLimitError struct {
	Secret cache.ObjectName
	// Namespace is true when the namespace's limit is the one reached, else the total.
	Namespace bool
	Limit     int
	// Share is the namespace's fair share of the total, which it holds; Ceiling is true
	// when it does not, but the watches are twice the total.
	Share   int
	Ceiling bool
}

func (e *OverLimitError) Error() string {
	switch {
	case e.Namespace:
		return fmt.Sprintf("the Networks of namespace %s name more credentials Secrets than the %d the controller watches per namespace; Secret %s waits until one of them is no longer named",
			e.Secret.Namespace, e.Limit, e.Secret)
	case e.Ceiling:
		return fmt.Sprintf("the controller watches twice as many credentials Secrets as its bound of %d; Secret %s waits until one of them is no longer named", e.Limit, e.Secret)
	}
	return fmt.Sprintf("the controller watches as many credentials Secrets as it may (%d), and namespace %s holds its share of them (%d); Secret %s waits until one of them is no longer named",
		e.Limit, e.Secret.Namespace, e.Share, e.Secret)
}

func (e *OverLimitError) Unwrap() error { return ErrOverLimit }

// bounded reports whether a watch used by network counts against the limits: a
// ClusterIdentity's key has no namespace.
func bounded(network cache.ObjectName) bool { return network.Namespace != "" }

// allowsLocked reports whether one more watch, of secret for network, is within limits.
func (w *Watches) allowsLocked(network, secret cache.ObjectName) bool {
	return w.overLocked(network, secret) == nil
}

func (w *Watches) overLocked(network, secret cache.ObjectName) *OverLimitError {
	if !bounded(network) {
		return nil
	}
	if l := w.limits.PerNamespace; l > 0 && w.held[secret.Namespace] >= l {
		return &OverLimitError{Secret: secret, Namespace: true, Limit: l}
	}
	return w.overTotalLocked(secret)
}

// overTotalLocked says whether one more running watch of secret's namespace is over the
// total as it is shared.
func (w *Watches) overTotalLocked(secret cache.ObjectName) *OverLimitError {
	total := w.limits.Total
	if total <= 0 || w.liveTotal < total {
		return nil
	}
	share := w.shareLocked(secret.Namespace)
	switch {
	case w.live[secret.Namespace] >= share:
		return &OverLimitError{Secret: secret, Limit: total, Share: share}
	case w.liveTotal >= 2*total:
		return &OverLimitError{Secret: secret, Limit: total, Share: share, Ceiling: true}
	}
	return nil
}

// shareLocked is namespace's fair share of the total: the total divided by the
// namespaces holding running watches, namespace included, and at least 1.
func (w *Watches) shareLocked(namespace string) int {
	sharing := len(w.live)
	if w.live[namespace] == 0 {
		sharing++
	}
	return max(1, w.limits.Total/sharing)
}

// admitWaitingLocked starts the watch of a Secret that waits, if the limits now allow
// one: of the namespace holding the fewest running watches, so that a place freed goes
// to the namespace furthest below its share. The others' Networks retry.
func (w *Watches) admitWaitingLocked() {
	var best cache.ObjectName
	fewest := -1
	for secret := range w.waiting {
		if live := w.live[secret.Namespace]; (fewest < 0 || live < fewest) && w.allowsLocked(cache.NewObjectName(secret.Namespace, ""), secret) {
			best, fewest = secret, live
		}
	}
	if fewest >= 0 {
		w.addWatchLocked(best, true, w.waiting[best])
		delete(w.waiting, best)
	}
}

// notWatched is State's error for a Secret without a watch; one that waits and fits in
// the limits now gets its watch.
func (w *Watches) notWatched(secret cache.ObjectName) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	users, waits := w.waiting[secret]
	if !waits {
		return ErrNotWatched
	}
	if err := w.overLocked(cache.NewObjectName(secret.Namespace, ""), secret); err != nil {
		return err
	}
	delete(w.waiting, secret)
	w.addWatchLocked(secret, true, users)
	return ErrNotWatched
}

// Waiting returns how many Secrets that Networks name wait for a watch.
func (w *Watches) Waiting() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.waiting)
}
