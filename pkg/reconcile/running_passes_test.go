package reconcile

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

func TestRunningPassesNeedAnotherOnlyForSomeoneElsesVersion(t *testing.T) {
	key := cache.ObjectName{Namespace: "team-a", Name: "net"}
	version := func(rv string) *samplecrdv1.Network {
		return &samplecrdv1.Network{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name, ResourceVersion: rv}}
	}
	ownIs := func(rv string) func(*samplecrdv1.Network) bool {
		return func(n *samplecrdv1.Network) bool { return n.ResourceVersion == rv }
	}
	var r RunningPasses
	if r.Deliver(version("1")) {
		t.Fatal("Deliver kept a version while no pass ran")
	}
	r.Begin(key)
	if !r.Deliver(version("2")) {
		t.Fatal("Deliver did not keep a version while the pass ran")
	}
	if r.End(key, ownIs("2")) {
		t.Error("End asked for another pass after only the pass's own version was delivered")
	}
	r.Begin(key)
	r.Deliver(version("3"))
	r.Deliver(version("4"))
	if !r.End(key, ownIs("3")) {
		t.Error("End asked for no other pass after someone else's version was delivered")
	}
	if r.Deliver(version("5")) {
		t.Error("Deliver kept a version after the pass ended")
	}
}

func TestRunningPassesWaitForTheMatchingPasses(t *testing.T) {
	var r RunningPasses
	r.Begin(cache.ObjectName{Namespace: "team-a", Name: "net"})
	r.Begin(cache.ObjectName{Namespace: "team-b", Name: "net"})
	r.WaitFor(context.Background(), func(ns string) bool { return ns == "team-c" })

	done := make(chan struct{})
	go func() {
		r.WaitFor(context.Background(), func(ns string) bool { return ns == "team-a" })
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("WaitFor returned while a matching pass ran")
	case <-time.After(100 * time.Millisecond):
	}
	r.End(cache.ObjectName{Namespace: "team-a", Name: "net"}, func(*samplecrdv1.Network) bool { return true })
	<-done

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r.WaitFor(ctx, func(ns string) bool { return ns == "team-b" })
}
