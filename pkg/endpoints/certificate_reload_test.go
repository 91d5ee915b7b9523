package endpoints

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/klog/v2/ktesting"
)

// filesOf builds the certFiles serverTLSConfig builds, for a test to move checkedAt.
func filesOf(t *testing.T, dir string) *certFiles {
	t.Helper()
	logger, _ := ktesting.NewTestContext(t)
	files := &certFiles{cert: filepath.Join(dir, certFileName), key: filepath.Join(dir, keyFileName), logger: logger}
	if err := files.load(); err != nil {
		t.Fatalf("load: %v", err)
	}
	return files
}

func (f *certFiles) moveCheckBack(by time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.checkedAt = f.checkedAt.Add(-by)
}

func TestCertFilesReload(t *testing.T) {
	dir := t.TempDir()
	first := newKeyPair(t, "first.metrics.example")
	second := newKeyPair(t, "second.metrics.example")
	mtime := time.Now().Add(-time.Hour)
	nextMtime := func() time.Time { mtime = mtime.Add(time.Minute); return mtime }
	first.write(t, dir, nextMtime())
	files := filesOf(t, dir)
	past := certRecheckPeriod + time.Second

	steps := []struct {
		name string
		// change is made to the files before asking for the certificate.
		change func()
		// moveBack moves the last check back past certRecheckPeriod.
		moveBack bool
		want     string
	}{
		{name: "first pair", change: func() {}, want: first.host},
		{
			name:     "replaced by the second pair, after the recheck period",
			change:   func() { second.write(t, dir, nextMtime()) },
			moveBack: true,
			want:     second.host,
		},
		{
			name: "garbage certificate keeps the second pair",
			change: func() {
				writeFile(t, filepath.Join(dir, certFileName), []byte("not a certificate\n"), nextMtime())
			},
			moveBack: true,
			want:     second.host,
		},
		{
			name:   "replaced by the first pair within the recheck period: not looked at",
			change: func() { first.write(t, dir, nextMtime()) },
			want:   second.host,
		},
		{
			name:     "the same files once the recheck period passed",
			change:   func() {},
			moveBack: true,
			want:     first.host,
		},
		{
			name:     "removed files keep the first pair",
			change:   func() { _ = os.Remove(filepath.Join(dir, keyFileName)) },
			moveBack: true,
			want:     first.host,
		},
		{
			name:     "files back",
			change:   func() { second.write(t, dir, nextMtime()) },
			moveBack: true,
			want:     second.host,
		},
	}
	for _, step := range steps {
		step.change()
		if step.moveBack {
			files.moveCheckBack(past)
		}
		if got := servedHost(t, files.current); got != step.want {
			t.Errorf("%s: serves the certificate of %q, want %q", step.name, got, step.want)
		}
	}
}

// Within certRecheckPeriod of the last check the files are not looked at, even when they
// are gone.
func TestCertFilesNotLookedAtWithinRecheckPeriod(t *testing.T) {
	dir := t.TempDir()
	first := newKeyPair(t, "first.metrics.example")
	second := newKeyPair(t, "second.metrics.example")
	first.write(t, dir, time.Now().Add(-time.Hour))
	files := filesOf(t, dir)

	second.write(t, dir, time.Now().Add(-time.Minute))
	files.moveCheckBack(certRecheckPeriod - 5*time.Second)
	if got := servedHost(t, files.current); got != first.host {
		t.Errorf("within the recheck period: serves %q, want the old %q", got, first.host)
	}
	files.moveCheckBack(10 * time.Second)
	if got := servedHost(t, files.current); got != second.host {
		t.Errorf("past the recheck period: serves %q, want the new %q", got, second.host)
	}
}
