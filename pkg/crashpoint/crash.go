//go:build e2ecrash

package crashpoint

import (
	"fmt"
	"os"
)

// Built only into the end-to-end test binary: NETWORK_CONTROLLER_CRASH_AT=<point> makes
// the process die at that point like a killed controller would, without any cleanup.
func init() {
	point := os.Getenv("NETWORK_CONTROLLER_CRASH_AT")
	if point == "" {
		return
	}
	Reached = func(p string) {
		if p == point {
			fmt.Fprintf(os.Stderr, "e2ecrash: exiting at %s\n", p)
			os.Exit(3)
		}
	}
}
