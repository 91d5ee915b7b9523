//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	kstatus "sigs.k8s.io/cli-utils/pkg/kstatus/status"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// ArgoCDHealthScript is the Argo CD health check of Networks, relative to the repository.
const ArgoCDHealthScript = "deploy/argocd/network-health.lua"

// Health is what a GitOps tool makes of an object's status.
type Health struct {
	Status  string
	Message string
}

// GetServed returns the Network as the API serves it to tools that read it without Go
// types: with the fields the CRD defaults even where they are zero, which a typed client
// drops (status.observedGeneration 0 of a Network no controller has written).
func GetServed(t testing.TB, ns, name string) *unstructured.Unstructured {
	t.Helper()
	_, nets := Clients(t)
	raw, err := nets.SamplecrdV1().RESTClient().Get().Namespace(ns).Resource("networks").Name(name).DoRaw(Ctx(t, 30*time.Second))
	if err != nil {
		t.Fatalf("getting Network %s/%s: %v", ns, name, err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(raw); err != nil {
		t.Fatalf("decoding Network %s/%s: %v", ns, name, err)
	}
	return u
}

// Kstatus computes the Network's status with the kstatus library (sigs.k8s.io/cli-utils),
// as Flux, kpt and kapp do.
func Kstatus(t testing.TB, u *unstructured.Unstructured) Health {
	t.Helper()
	result, err := kstatus.Compute(u)
	if err != nil {
		t.Fatalf("kstatus of Network %s/%s: %v", u.GetNamespace(), u.GetName(), err)
	}
	return Health{Status: string(result.Status), Message: result.Message}
}

// ArgoCDHealth runs the Argo CD health check script (a file) on the Network with Debian's
// Lua 5.1, the Lua Argo CD's gopher-lua implements: the object, as JSON makes it, is the
// global obj, and the script's return value is the health.
func ArgoCDHealth(t testing.TB, script string, u *unstructured.Unstructured) Health {
	t.Helper()
	lua, err := exec.LookPath("lua5.1")
	if err != nil {
		t.Fatalf("no lua5.1 (hack/e2e.sh installs Debian's package with hack/lua.sh install): %v", err)
	}
	driver := "obj = " + luaLiteral(u.Object) + "\n" +
		"local hs = dofile(" + luaLiteral(script) + ")\n" +
		`io.write(tostring(hs.status), "\n", tostring(hs.message))` + "\n"
	path := filepath.Join(t.TempDir(), "health-driver.lua")
	if err := os.WriteFile(path, []byte(driver), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := runCommand(30*time.Second, lua, path)
	if err != nil {
		t.Fatalf("running %s on Network %s/%s: %v\n%s", script, u.GetNamespace(), u.GetName(), err, stderr)
	}
	status, message, _ := strings.Cut(stdout, "\n")
	return Health{Status: status, Message: message}
}

// UnstructuredOf is a Network made in a test as the API would serve it, with its
// apiVersion and kind.
func UnstructuredOf(t testing.TB, n *samplecrdv1.Network) *unstructured.Unstructured {
	t.Helper()
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(n)
	if err != nil {
		t.Fatalf("converting Network %s/%s: %v", n.Namespace, n.Name, err)
	}
	u := &unstructured.Unstructured{Object: content}
	u.SetAPIVersion(samplecrdv1.SchemeGroupVersion.String())
	u.SetKind("Network")
	return u
}

// luaLiteral writes a JSON-like value (maps, slices, strings, numbers, booleans, nil) as a
// Lua table constructor or constant. Strings keep their bytes: anything outside printable
// ASCII is a decimal escape, which Lua 5.1 reads back as the same byte.
func luaLiteral(v any) string {
	switch v := v.(type) {
	case nil:
		return "nil"
	case bool:
		return strconv.FormatBool(v)
	case string:
		var b strings.Builder
		b.WriteByte('"')
		for i := 0; i < len(v); i++ {
			switch c := v[i]; {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c < 0x20 || c >= 0x7f:
				fmt.Fprintf(&b, "\\%03d", c)
			default:
				b.WriteByte(c)
			}
		}
		b.WriteByte('"')
		return b.String()
	case int64:
		return strconv.FormatInt(v, 10)
	case int:
		return strconv.Itoa(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case []any:
		parts := make([]string, len(v))
		for i, item := range v {
			parts[i] = luaLiteral(item)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = "[" + luaLiteral(k) + "] = " + luaLiteral(v[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	panic(fmt.Sprintf("luaLiteral: %T is not a JSON value", v))
}
