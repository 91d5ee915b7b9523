//go:build e2e

package e2e

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"sync"
	"testing"
)

// The ports freeAddress hands out lie just below the kernel's ephemeral range: a port the
// kernel picked for "127.0.0.1:0" could be handed to any outgoing connection between the
// moment it was found free and the moment the controller binds it, which parallel tests
// (each opening connections to the servers) made happen. Below that range only a listener
// takes a port, and the counter keeps two tests of this process from getting the same one.
const portBlock = 2500

var ports struct {
	sync.Mutex
	low, next, high int
}

// freeAddress returns an address on 127.0.0.1 whose port was free a moment ago and that no
// other caller in this test process gets.
func freeAddress(t testing.TB) string {
	t.Helper()
	ports.Lock()
	defer ports.Unlock()
	if ports.high == 0 {
		ports.low, ports.high = portBlockBelowEphemeral()
		ports.next = ports.low + rand.IntN(ports.high-ports.low) // two runs side by side start apart
	}
	for range ports.high - ports.low {
		port := ports.next
		ports.next++
		if ports.next == ports.high {
			ports.next = ports.low
		}
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue
		}
		addr := l.Addr().String()
		l.Close()
		return addr
	}
	t.Fatalf("no free port on 127.0.0.1 in %d-%d", ports.low, ports.high-1)
	return ""
}

// portBlockBelowEphemeral returns [low, high): the portBlock ports below the kernel's
// ephemeral range (32768 when it cannot be read).
func portBlockBelowEphemeral() (low, high int) {
	high = 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		var first, last int
		if _, err := fmt.Sscan(string(b), &first, &last); err == nil && first > portBlock+1024 {
			high = first
		}
	}
	return high - portBlock, high
}
