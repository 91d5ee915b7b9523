package endpoints

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"k8s.io/klog/v2"
)

const (
	// maxReviewsInFlight bounds the TokenReviews and SubjectAccessReviews the metrics
	// filter has open at once. A scraper's answers are cached, so it costs a review about
	// once a minute: 4 leave room for a few scrapers whose answers expire together, while
	// callers with ever new tokens cannot have the controller hold a request to the
	// apiserver open for each, up to reviewTimeout long.
	maxReviewsInFlight = 4
	// reviewRetryAfter is the Retry-After of a request refused past the bound: a review
	// takes milliseconds while the apiserver is well, so a slot is likely free by then.
	reviewRetryAfter = time.Second
	// refusalLogInterval spaces the lines about refused requests: a flood of callers
	// makes one line per interval, with the count, instead of one each.
	refusalLogInterval = 10 * time.Second
)

// errTooManyReviews is a review not made because maxReviewsInFlight are.
var errTooManyReviews = errors.New("too many reviews in flight")

// reviewSlots is a semaphore of reviews in flight: a review takes a slot or is not made.
type reviewSlots chan struct{}

func newReviewSlots(n int) reviewSlots { return make(reviewSlots, n) }

// tryTake takes a slot when one is free, without waiting: a request past the bound is
// answered at once instead of queueing behind the reviews.
func (s reviewSlots) tryTake() bool {
	select {
	case s <- struct{}{}:
		return true
	default:
		return false
	}
}

// free gives back a slot tryTake took.
func (s reviewSlots) free() { <-s }

// refuseTooManyReviews answers 429 with Retry-After, and logs at most once per
// refusalLogInterval how many requests were refused since the last line.
func (f *accessFilter) refuseTooManyReviews(w http.ResponseWriter, r *http.Request) {
	if refused, due := f.refusals.count(); due {
		klog.FromContext(r.Context()).Info("Refused metrics requests: too many callers being reviewed at once",
			"refused", refused, "maxReviewsInFlight", maxReviewsInFlight)
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(reviewRetryAfter/time.Second)))
	http.Error(w, "Too Many Requests: too many callers are being reviewed, retry later", http.StatusTooManyRequests)
}
