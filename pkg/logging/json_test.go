package logging

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// lines decodes each line of out as one JSON object, keeping the raw line beside it.
func lines(t *testing.T, out *bytes.Buffer) (objs []map[string]any, raw []string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if line == "" {
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("line is not JSON (%v): %s", err, line)
		}
		objs, raw = append(objs, obj), append(raw, line)
	}
	return objs, raw
}

var thisFile = regexp.MustCompile(`^logging/json_test\.go:\d+$`)

// An info line is {"ts":<ms>,"caller":"dir/file.go:line","msg":...,"v":N,...} as
// Kubernetes' components write it: no time, level or source of slog's own.
func TestJSONInfoLineHasKubernetesKeys(t *testing.T) {
	var out bytes.Buffer
	logger := logr.FromSlogHandler(newKubeJSONHandler(&out, 4))
	before := float64(time.Now().UnixMicro()) / 1e3
	logger.Info("Connected", "apiserver", "https://10.0.0.1:443", "after", 1500*time.Millisecond,
		"secret", cache.NewObjectName("team-a", "openstack"), "network", klog.KRef("team-a", "web"))
	logger.V(3).Info("Detail")
	logger.V(5).Info("Above the verbosity")
	after := float64(time.Now().UnixMicro()) / 1e3

	objs, raw := lines(t, &out)
	if len(objs) != 2 {
		t.Fatalf("%d lines, want 2 (V(5) is above -v=4):\n%s", len(objs), out.String())
	}
	info := objs[0]
	if ts, ok := info["ts"].(float64); !ok || ts < before-1 || ts > after+1 {
		t.Errorf("ts = %v, want milliseconds since the epoch within [%f, %f]", info["ts"], before, after)
	}
	if caller, _ := info["caller"].(string); !thisFile.MatchString(caller) {
		t.Errorf("caller = %q, want logging/json_test.go:<line>", caller)
	}
	want := map[string]any{"msg": "Connected", "v": 0.0, "apiserver": "https://10.0.0.1:443", "after": "1.5s",
		"secret": "team-a/openstack", "network": map[string]any{"name": "web", "namespace": "team-a"}}
	for k, v := range want {
		if got := info[k]; !equalJSON(got, v) {
			t.Errorf("%s = %#v, want %#v", k, got, v)
		}
	}
	for _, k := range []string{"time", "level", "source"} {
		if _, ok := info[k]; ok {
			t.Errorf("info line has slog's key %q: %s", k, raw[0])
		}
	}
	if order := keyOrder(raw[0], "ts", "caller", "msg", "v", "apiserver"); !slices.IsSorted(order) {
		t.Errorf("keys out of Kubernetes' order ts, caller, msg, v, values: %s", raw[0])
	}
	if v := objs[1]["v"]; v != 3.0 || objs[1]["msg"] != "Detail" {
		t.Errorf("V(3) line: %s, want v 3", raw[1])
	}
}

// An error line has no v and its error in err, after the values; a named logger says its
// name in logger, and its values come before the line's own.
func TestJSONErrorLineHasErrAndNoVerbosity(t *testing.T) {
	var out bytes.Buffer
	logger := logr.FromSlogHandler(newKubeJSONHandler(&out, 0)).WithName("neutron-resync").WithValues("place", "p1")
	logger.Error(errors.New("connection refused"), "Neutron resync failed", "attempt", 2)
	logger.Error(nil, "Lost leadership; exiting")

	objs, raw := lines(t, &out)
	if len(objs) != 2 {
		t.Fatalf("%d lines, want 2:\n%s", len(objs), out.String())
	}
	want := map[string]any{"msg": "Neutron resync failed", "err": "connection refused", "logger": "neutron-resync",
		"place": "p1", "attempt": 2.0}
	if got := objs[0]; !maps.EqualFunc(withoutTimeAndCaller(got), want, equalJSON) {
		t.Errorf("error line %s\nwant %v besides ts and caller", raw[0], want)
	}
	if order := keyOrder(raw[0], "ts", "caller", "msg", "place"); !slices.IsSorted(order) {
		t.Errorf("keys out of order: %s", raw[0])
	}
	if _, ok := objs[1]["err"]; ok || objs[1]["v"] != nil {
		t.Errorf("error line without an error: %s, want neither err nor v", raw[1])
	}
}

// Through klog, as the controller logs, the caller is the line that logged, not klog's.
func TestJSONThroughKlogNamesTheCaller(t *testing.T) {
	var out bytes.Buffer
	klog.SetLogger(logr.FromSlogHandler(newKubeJSONHandler(&out, 2)))
	defer klog.ClearLogger()
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)
	if err := klogFlags.Set("v", "2"); err != nil { // klog filters V(n) by its own -v first, as in main
		t.Fatal(err)
	}
	defer klogFlags.Set("v", "0")
	klog.Background().V(2).Info("Contextual", "key", "value")
	klog.InfoS("Structured")
	klog.ErrorS(errors.New("boom"), "Failed")
	klog.Flush()

	objs, raw := lines(t, &out)
	if len(objs) != 3 {
		t.Fatalf("%d lines, want 3:\n%s", len(objs), out.String())
	}
	for i, obj := range objs {
		if caller, _ := obj["caller"].(string); !thisFile.MatchString(caller) {
			t.Errorf("caller of %s is %q, want logging/json_test.go:<line>", raw[i], caller)
		}
	}
	if objs[0]["v"] != 2.0 || objs[1]["v"] != 0.0 || objs[2]["err"] != "boom" {
		t.Errorf("lines %q, want v 2, v 0, and err boom", raw)
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func withoutTimeAndCaller(obj map[string]any) map[string]any {
	rest := maps.Clone(obj)
	delete(rest, "ts")
	delete(rest, "caller")
	return rest
}

// keyOrder returns where each key starts in the raw line, -1 for a missing one.
func keyOrder(raw string, keys ...string) []int {
	at := make([]int, len(keys))
	for i, k := range keys {
		at[i] = strings.Index(raw, `"`+k+`":`)
	}
	return at
}
