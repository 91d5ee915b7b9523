package registry

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/lockout"
	"github.com/samplecrd/network-controller/pkg/neutron"
)

// client is one credential's authenticated connection, or why there is none.
type client struct {
	// mu is held while authenticating, so that Networks sharing the credentials wait
	// for one attempt instead of making their own: Keystone locks users out after
	// repeated failures.
	mu sync.Mutex
	// conn is set, under mu, once authenticated; read without mu, so that the resync
	// sees a connected client's project while another Network holds mu.
	conn atomic.Pointer[connection]
	// err is the last failure; a terminal one stands until the credentials change (and
	// with them the client), a transient one for the registry's backoff.
	err      *Error
	failedAt time.Time
	// users counts the Networks using the credentials; guarded by the registry's mu.
	users int
	// source is where the credentials were first read from, for the metrics.
	source atomic.Pointer[Source]
}

// connection is an authenticated client's driver and the Place its calls land in.
type connection struct {
	driver neutron.Driver
	place  neutron.Place
}

// connect returns the client's driver and Place, authenticating on first use.
func (c *client) connect(ctx context.Context, r *Registry, cloud Cloud) (neutron.Driver, neutron.Place, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if conn := c.conn.Load(); conn != nil {
		refusable, ok := conn.driver.(interface{ Refused() error })
		if !ok || refusable.Refused() == nil {
			return conn.driver, conn.place, nil
		}
		// Keystone stopped accepting the credentials since (password changed,
		// application credential deleted): refused until the Secret changes.
		c.err, c.failedAt = authFailure(cloud, refusable.Refused()), r.now()
		c.conn.Store(nil)
		return nil, neutron.Place{}, c.err
	}
	if c.err != nil && (c.err.Terminal() || r.now().Sub(c.failedAt) < r.unavailableBackoff) {
		return nil, neutron.Place{}, c.err
	}
	driver, place, err := r.connect(ctx, cloud.Credentials)
	if _, deferred := neutron.AsThrottled(err); deferred {
		// Not a failure: its token request waits for its turn, and the Network comes
		// back for it.
		return nil, neutron.Place{}, err
	}
	if err != nil {
		c.err, c.failedAt = authFailure(cloud, err), r.now()
		return nil, neutron.Place{}, c.err
	}
	c.err = nil
	c.conn.Store(&connection{driver: driver, place: place})
	return driver, place, nil
}

// connected returns the driver and Place of a client that authenticated (nil before).
func (c *client) connected() (neutron.Driver, neutron.Place) {
	if conn := c.conn.Load(); conn != nil {
		return conn.driver, conn.place
	}
	return nil, neutron.Place{}
}

// authFailure turns a failed authentication into the Network's reason: refused
// credentials are terminal, anything else is retried.
func authFailure(cloud Cloud, err error) *Error {
	var held *lockout.AccountHeldError
	if errors.As(err, &held) {
		return &Error{Reason: samplecrdv1.ReasonKeystoneAccountHeld, Transient: true, Err: err,
			Message: cloud.Name + ": " + held.Error()}
	}
	var ne *neutron.Error
	if errors.As(err, &ne) && ne.Service == "keystone" && ne.Kind == neutron.KindRejected {
		return &Error{Reason: cloud.RejectedReason(), Err: err,
			Message: "Keystone refused the " + cloud.Method + " of " + cloud.Name + " (" + ne.Message + "); update the Secret"}
	}
	why := err.Error()
	if errors.As(err, &ne) && ne.Service == "keystone" {
		why = ne.Op + ": " + ne.Message
	}
	return &Error{Reason: samplecrdv1.ReasonKeystoneUnavailable, Transient: true, Err: err,
		Message: "cannot authenticate with " + cloud.Name + " (" + why + "); retrying with backoff"}
}
