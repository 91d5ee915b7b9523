package shard

import (
	"errors"
	"fmt"
	"time"

	"k8s.io/utils/clock"
)

// Config is what a Holder needs.
type Config struct {
	// Namespace holds the Leases; Name is the group's name, which every Lease's name starts with.
	Namespace, Name string
	// Shards is the number of shards.
	Shards int
	// Identity names this replica in the Leases' holderIdentity.
	Identity string
	// FieldManager names the Holder's writes.
	FieldManager string
	// As leader election has them: a Lease not renewed for LeaseDuration (as this
	// replica's clock measures from when it saw the last renewal) is free; a holder that
	// has no renewal confirmed for RenewDeadline has lost its shard; every RetryPeriod the
	// Holder renews and looks again. Each Lease call ends after a third of RenewDeadline.
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	// Clock is the Holder's time; nil is the real one.
	Clock clock.WithDelayedExecution
}

// Validate reports what keeps c from holding shards safely: a holder must give a shard
// up (RenewDeadline) before another may take it (LeaseDuration), and no Lease call may
// outlast the renew deadline.
func (c Config) Validate() error {
	var errs []error
	if c.Shards < 1 {
		errs = append(errs, fmt.Errorf("the number of shards must be at least 1, got %d", c.Shards))
	}
	if c.Name == "" || c.Identity == "" {
		// A Lease held by "" reads as released.
		errs = append(errs, errors.New("the Lease group's name and the replica's identity must not be empty"))
	}
	if c.RetryPeriod <= 0 || c.RenewDeadline <= c.RetryPeriod {
		errs = append(errs, fmt.Errorf("the renew deadline (%v) must be longer than the retry period (%v), which must be positive", c.RenewDeadline, c.RetryPeriod))
	}
	if c.LeaseDuration <= c.RenewDeadline {
		errs = append(errs, fmt.Errorf("the lease duration (%v) must be longer than the renew deadline (%v): a holder stops a shard's work before another may take it", c.LeaseDuration, c.RenewDeadline))
	}
	if t := c.callTimeout(); t <= 0 || t >= c.RenewDeadline {
		errs = append(errs, fmt.Errorf("a Lease call's timeout (%v) must be positive and shorter than the renew deadline (%v)", t, c.RenewDeadline))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("invalid shard holder configuration: %w", err)
	}
	return nil
}

// callTimeout bounds each Lease call. A third of the renew deadline: a renewal cut off
// by it leaves time for the next one at the usual retry period (while RetryPeriod is
// under a third of RenewDeadline, as with the defaults' 2 s of 10 s).
func (c Config) callTimeout() time.Duration { return c.RenewDeadline / 3 }
