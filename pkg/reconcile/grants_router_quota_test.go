package reconcile

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"k8s.io/client-go/tools/cache"
)

// Passes that run at once cannot together take more routers than the bound: the ones
// status already shows count, an admitted Network keeps its place, a released one frees it.
func TestRouterQuotaAdmitsNoMoreThanTheBoundInParallel(t *testing.T) {
	var q routerQuota
	var admitted atomic.Int32
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if q.admit(cache.ObjectName{Namespace: "team-a", Name: fmt.Sprint("n", i)}, 3, []string{"made-before"}) {
				admitted.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := admitted.Load(); n != 2 {
		t.Fatalf("%d Networks admitted beside one whose status names its router, bound 3; want 2", n)
	}
	var holder string
	for name := range q.held["team-a"] {
		holder = name
	}
	if !q.admit(cache.ObjectName{Namespace: "team-a", Name: holder}, 3, []string{"made-before"}) {
		t.Errorf("%s, admitted before, is refused on its next pass", holder)
	}
	if q.admit(cache.ObjectName{Namespace: "team-b", Name: "other"}, 1, nil) != true {
		t.Errorf("another namespace's first router is refused")
	}
	q.release(cache.ObjectName{Namespace: "team-a", Name: holder})
	if !q.admit(cache.ObjectName{Namespace: "team-a", Name: "late"}, 3, []string{"made-before"}) {
		t.Errorf("a place released is not given to the next Network")
	}
}
