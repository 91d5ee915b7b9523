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

// Limits bound the watches of Networks' Secrets.
type Limits struct {
	// PerNamespace bounds the Secrets of one namespace watched at once; 0 is no bound.
	PerNamespace int
	// Total bounds them in all; 0 is no bound.
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
}

func (e *OverLimitError) Error() string {
	if e.Namespace {
		return fmt.Sprintf("the Networks of namespace %s name more credentials Secrets than the %d the controller watches per namespace; Secret %s waits until one of them is no longer named",
			e.Secret.Namespace, e.Limit, e.Secret)
	}
	return fmt.Sprintf("the controller watches as many credentials Secrets as it may (%d); Secret %s waits until one of them is no longer named", e.Limit, e.Secret)
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
	if l := w.limits.PerNamespace; l > 0 && w.bounded[secret.Namespace] >= l {
		return &OverLimitError{Secret: secret, Namespace: true, Limit: l}
	}
	if l := w.limits.Total; l > 0 && w.boundedTotalLocked() >= l {
		return &OverLimitError{Secret: secret, Limit: l}
	}
	return nil
}

func (w *Watches) boundedTotalLocked() int {
	n := 0
	for _, c := range w.bounded {
		n += c
	}
	return n
}

// admitWaitingLocked starts the watch of a Secret that waits, if the limits now allow
// one: the oldest name is not known, so the first the map gives; its Networks retry.
func (w *Watches) admitWaitingLocked() {
	for secret, users := range w.waiting {
		network := cache.NewObjectName(secret.Namespace, "")
		if !w.allowsLocked(network, secret) {
			continue
		}
		delete(w.waiting, secret)
		w.addWatchLocked(network, secret).users = users
		return
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
	network := cache.NewObjectName(secret.Namespace, "")
	if err := w.overLocked(network, secret); err != nil {
		return err
	}
	delete(w.waiting, secret)
	w.addWatchLocked(network, secret).users = users
	return ErrNotWatched
}

// Waiting returns how many Secrets that Networks name wait for a watch.
func (w *Watches) Waiting() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.waiting)
}
