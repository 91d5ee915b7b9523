package tokenturns

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// A party's flood delays another party's request by one permit, not by the flood: its
// request is handed the permit after the one being handed out when it came.
func TestAFloodDelaysAnotherPartyByOnePermit(t *testing.T) {
	clock := clocktesting.NewFakeClock(time.Unix(1e9, 0))
	l := New(2, 2, clock)
	ctx := context.Background()

	var mu sync.Mutex
	var order []string
	wait := func(party string, wg *sync.WaitGroup) {
		defer wg.Done()
		if err := l.Wait(ctx, party); err != nil {
			t.Errorf("%s: %v", party, err)
			return
		}
		mu.Lock()
		order = append(order, party)
		mu.Unlock()
	}
	var wg sync.WaitGroup
	const flood = 40
	wg.Add(flood)
	for range flood {
		go wait("flood", &wg)
	}
	waitFor(t, func() bool { return l.Waiting() == flood-2 }) // the burst went at once
	wg.Add(1)
	go wait("calm", &wg)
	waitFor(t, func() bool { return l.Waiting() == flood-2+1 })

	// One permit each half second; calm gets the second at the latest.
	for step := 1; ; step++ {
		step1(t, clock, 500*time.Millisecond)
		waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(order) == 2+step })
		mu.Lock()
		done := slices.Contains(order, "calm")
		mu.Unlock()
		if done {
			if step > 2 {
				t.Errorf("calm was handed a permit after %d permits of the flood, want at most 1", step-1)
			}
			break
		}
		if step > flood {
			t.Fatal("calm never got a permit")
		}
	}
	for granted := len(order); granted < flood+1; granted++ {
		step1(t, clock, 500*time.Millisecond)
		waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(order) == granted+1 })
	}
	wg.Wait()
	if len(order) != flood+1 {
		t.Errorf("%d permits handed out, want %d", len(order), flood+1)
	}
}

// Parties with requests waiting take turns: three parties get permits in rotation.
func TestPartiesTakeTurns(t *testing.T) {
	clock := clocktesting.NewFakeClock(time.Unix(1e9, 0))
	l := New(1, 1, clock)
	if err := l.Wait(context.Background(), "warm"); err != nil { // spends the burst
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	for i, party := range []string{"a", "a", "a", "b", "b", "c"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := l.Wait(context.Background(), party); err == nil {
				mu.Lock()
				order = append(order, party)
				mu.Unlock()
			}
		}()
		waitFor(t, func() bool { return l.Waiting() == i+1 }) // queued in this order
	}
	for granted := 1; granted <= 6; granted++ { // one permit a second, one at a time
		step1(t, clock, time.Second)
		waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(order) == granted })
	}
	wg.Wait()
	// Each party with a request waiting, in the order they came, in turn.
	want := "abcaba"
	got := ""
	for _, p := range order {
		got += p
	}
	if got != want {
		t.Errorf("permits went to %s, want %s", got, want)
	}
}

// A request whose context ends stops waiting and uses no permit.
func TestCancelledRequestUsesNoPermit(t *testing.T) {
	clock := clocktesting.NewFakeClock(time.Unix(1e9, 0))
	l := New(1, 1, clock)
	if err := l.Wait(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- l.Wait(ctx, "b") }()
	waitFor(t, func() bool { return l.Waiting() == 1 })
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("a cancelled request got a permit")
	}
	if l.Waiting() != 0 {
		t.Errorf("%d requests wait, want 0", l.Waiting())
	}
	clock.Step(time.Second)
	if err := l.Wait(context.Background(), "c"); err != nil {
		t.Fatal(err)
	}
	if l.Waiting() != 0 {
		t.Error("the permit the cancelled request would have had was not there for the next")
	}
}

// step1 moves the clock on once the limiter has set its timer.
func step1(t *testing.T, clock *clocktesting.FakeClock, d time.Duration) {
	t.Helper()
	waitFor(t, clock.HasWaiters)
	clock.Step(d)
}

// waitFor waits (in real time, briefly) for goroutines to reach a state.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting for goroutines")
		}
		time.Sleep(time.Millisecond)
	}
}

// A reservation waits its turn as Wait does, without a goroutine blocked on it: behind a
// flood it is granted after one of the flood's permits, when ReadyIn said, and a
// cancelled one leaves the queue.
func TestReservationTakesItsTurnWithoutBlocking(t *testing.T) {
	clock := clocktesting.NewFakeClock(time.Unix(1e9, 0))
	l := New(2, 2, clock)
	var flood []*Reservation
	for range 10 {
		flood = append(flood, l.Reserve("flood"))
	}
	if !flood[0].Granted() || !flood[1].Granted() || flood[2].Granted() {
		t.Fatalf("granted %v %v %v, want the burst of 2 only", flood[0].Granted(), flood[1].Granted(), flood[2].Granted())
	}
	calm := l.Reserve("calm")
	if calm.Granted() {
		t.Fatal("calm was granted with no permit left")
	}
	if got := calm.ReadyIn(); got != time.Second {
		t.Errorf("calm ReadyIn = %s, want 1s: one permit of the flood, then its own, at 2 per second", got)
	}
	if got := flood[9].ReadyIn(); got != 4500*time.Millisecond {
		t.Errorf("the flood's last ReadyIn = %s, want 4.5s: 7 of the flood and calm's before it, then its own", got)
	}
	step1(t, clock, 500*time.Millisecond)
	waitFor(t, flood[2].Granted)
	if calm.Granted() {
		t.Fatal("calm was granted before the flood's turn")
	}
	step1(t, clock, 500*time.Millisecond)
	waitFor(t, calm.Granted)
	if got := calm.ReadyIn(); got != 0 {
		t.Errorf("ReadyIn of a granted reservation = %s, want 0", got)
	}

	waiting := l.Waiting()
	flood[9].Cancel()
	if got := l.Waiting(); got != waiting-1 {
		t.Errorf("Waiting = %d after a cancel, want %d", got, waiting-1)
	}
	calm.Cancel() // granted: a no-op
}

// A rate set to 0 (a replica holding no shard) hands out nothing more; set again, the
// requests waiting meanwhile get their permits at the new rate.
func TestSetRate(t *testing.T) {
	clock := clocktesting.NewFakeClock(time.Unix(1e9, 0))
	l := New(1, 1, clock)
	ctx := context.Background()
	if err := l.Wait(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	l.SetRate(0, 0)
	granted := make(chan struct{})
	go func() {
		if err := l.Wait(ctx, "a"); err != nil {
			t.Error(err)
		}
		close(granted)
	}()
	waitFor(t, func() bool { return l.Waiting() == 1 })
	clock.Step(time.Hour)
	time.Sleep(10 * time.Millisecond)
	if l.Waiting() != 1 {
		t.Fatal("a permit was handed out at rate 0")
	}
	l.SetRate(4, 1)
	step1(t, clock, 250*time.Millisecond)
	<-granted
}
