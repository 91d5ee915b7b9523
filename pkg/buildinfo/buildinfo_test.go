package buildinfo

import (
	"runtime"
	"testing"
)

func TestReadPrefersWhatTheBuildStamped(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	version, commit = "v1.2.3", "0123456789ab-dirty"
	got := Read()
	want := Info{Version: "v1.2.3", Commit: "0123456789ab-dirty", GoVersion: runtime.Version()}
	if got != want {
		t.Fatalf("Read() = %+v, want %+v", got, want)
	}
	if ua := got.UserAgent(); ua != "network-controller/v1.2.3 (0123456789ab-dirty)" {
		t.Fatalf("UserAgent() = %q", ua)
	}
}

func TestReadNamesAnUnstampedBuild(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	version, commit = "", ""
	// A test binary has no module version and no VCS stamp.
	if got := Read(); got.Version != "devel" || got.Commit != "unknown" {
		t.Fatalf("Read() = %+v, want devel (unknown)", got)
	}
}

func TestAStampCannotBreakTheUserAgent(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	version, commit = "v1 (evil)\r\nX: y", "()"
	if ua := Read().UserAgent(); ua != "network-controller/v1evilX:y (unknown)" {
		t.Fatalf("UserAgent() = %q", ua)
	}
}
