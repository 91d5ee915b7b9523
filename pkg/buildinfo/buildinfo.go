// Package buildinfo says which build of the controller runs: the version and commit the
// build stamped in (the Makefile and the Dockerfile pass them with -ldflags -X, which
// `go version -m` shows too), or, for a plain `go build` or `go run`, what Go recorded.
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Set at link time: -ldflags "-X github.com/samplecrd/network-controller/pkg/buildinfo.version=v0.4.0".
var (
	version string
	commit  string
)

// Info names a build.
type Info struct {
	Version, Commit, GoVersion string
}

// Read returns this binary's build.
func Read() Info {
	info := Info{Version: version, Commit: commit, GoVersion: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if info.Version == "" && bi.Main.Version != "(devel)" {
			info.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && info.Commit == "" {
				info.Commit = shortCommit(s.Value)
			}
		}
	}
	return Info{Version: token(info.Version, "devel"), Commit: token(info.Commit, "unknown"), GoVersion: info.GoVersion}
}

// UserAgent is the product the controller names itself with in every OpenStack call,
// before gophercloud's: "network-controller/<version> (<commit>)".
func (i Info) UserAgent() string {
	return "network-controller/" + i.Version + " (" + i.Commit + ")"
}

// shortCommit is the length git describe and the Makefile use.
func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// token keeps s usable inside a User-Agent and a metric label: one word without
// parentheses, or def when nothing is left.
func token(s, def string) string {
	s = strings.Map(func(r rune) rune {
		if r <= ' ' || r > '~' || r == '(' || r == ')' {
			return -1
		}
		return r
	}, s)
	if s == "" {
		return def
	}
	return s
}
