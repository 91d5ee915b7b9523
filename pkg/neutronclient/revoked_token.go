package neutronclient

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gophercloud/gophercloud/v2"
)

// revocationGrain is how finely Keystone tells tokens apart in time: it keeps when a token
// was issued in whole seconds, so a revocation (a user's password changed, say) covers every
// token issued in the second it happened, those issued just after it included.
const revocationGrain = time.Second

// refusedAfterRenewal reports whether Neutron refused the token (401) that gophercloud had
// just renewed. Then the new token was most likely issued in the same second as the
// revocation that made the old one fail (credentials rotated at once, by automation): one
// more renewal once that second is over gets a token that holds.
func refusedAfterRenewal(err error) bool {
	var after *gophercloud.ErrErrorAfterReauthentication
	if errors.As(err, &after) && after != nil {
		return gophercloud.ResponseCodeIs(after.ErrOriginal, http.StatusUnauthorized)
	}
	var v gophercloud.ErrErrorAfterReauthentication
	return errors.As(err, &v) && gophercloud.ResponseCodeIs(v.ErrOriginal, http.StatusUnauthorized)
}

// sleep waits for d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
