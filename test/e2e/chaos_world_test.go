//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	versioned "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
)

// chaosWorld drives random operations on Networks and remembers what it asked for.
type chaosWorld struct {
	t    *testing.T
	rng  *rand.Rand
	nets versioned.Interface
	ns   string

	ops  map[string]int  // operations by outcome kind
	live map[string]bool // names the test created and did not delete
	// growOnly stops deletes near the end, so that convergence is judged on a good number
	// of live objects and not only on their absence.
	growOnly bool
	gone     []string // names the test deleted (candidates for a re-create)
}

func (w *chaosWorld) lifetime() time.Duration {
	return chaosMinLifetime + time.Duration(w.rng.Int63n(int64(chaosMaxLifetime-chaosMinLifetime)))
}

func (w *chaosWorld) total() int {
	n := 0
	for _, c := range w.ops {
		n += c
	}
	return n
}

func (w *chaosWorld) describeOps() string {
	kinds := make([]string, 0, len(w.ops))
	for k := range w.ops {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s=%d", k, w.ops[k]))
	}
	return strings.Join(parts, " ")
}

func (w *chaosWorld) liveNames() []string {
	out := make([]string, 0, len(w.live))
	for n := range w.live {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (w *chaosWorld) pick(names []string) string { return names[w.rng.Intn(len(names))] }

// step runs one random operation. Failures the chaos causes (the apiserver restarting, a
// name still being deleted) are counted, not fatal.
func (w *chaosWorld) step() {
	live := w.liveNames()
	recentlyGone := map[string]bool{}
	for _, name := range w.gone {
		recentlyGone[name] = true
	}
	var fresh []string // never used, or deleted long enough ago to be gone
	for i := 0; i < chaosNames; i++ {
		name := fmt.Sprintf("chaos-%d", i)
		if !w.live[name] && !recentlyGone[name] {
			fresh = append(fresh, name)
		}
	}
	r := w.rng.Float64()
	switch {
	case len(live) > 0 && r < 0.25:
		w.setGateway(w.pick(live))
	case !w.growOnly && len(live) > 3 && r < 0.45:
		w.delete(w.pick(live))
	case len(w.gone) > 0 && r < 0.7 && w.recreate():
	case len(fresh) > 0:
		w.create(w.pick(fresh), "create")
	case len(w.gone) > 0 && w.recreate():
	case !w.growOnly && len(live) > 0 && r < 0.7:
		w.delete(w.pick(live))
	case len(live) > 0:
		w.setGateway(w.pick(live))
	}
}

// recreate creates again, with a new spec, a name the test deleted and that is gone
// (its finalizer done), and reports whether it found one.
func (w *chaosWorld) recreate() bool {
	for _, i := range w.rng.Perm(len(w.gone)) {
		name := w.gone[i]
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := w.nets.SamplecrdV1().Networks(w.ns).Get(ctx, name, metav1.GetOptions{})
		cancel()
		if !apierrors.IsNotFound(err) {
			continue // still deleting, or the apiserver is not answering
		}
		if w.create(name, "recreate") {
			w.gone = append(w.gone[:i], w.gone[i+1:]...)
		}
		return true
	}
	return false
}

// spec returns a random cidr and gateway of a random family; the gateway is empty
// (the first usable address) a third of the time.
func (w *chaosWorld) spec(name string) (cidr, gateway string) {
	idx, _ := strconv.Atoi(strings.TrimPrefix(name, "chaos-"))
	sub := w.rng.Intn(256)
	if w.rng.Intn(2) == 0 {
		cidr = fmt.Sprintf("10.%d.%d.0/24", 100+idx, sub)
	} else {
		cidr = fmt.Sprintf("fd00:%x:%x::/64", idx+1, sub+1)
	}
	if w.rng.Intn(3) > 0 {
		gateway = w.gatewayIn(cidr)
	}
	return cidr, gateway
}

// gatewayIn returns a random usable address of cidr, a /24 or /64 as spec makes them.
func (w *chaosWorld) gatewayIn(cidr string) string {
	if chaosFamily(cidr) == "ipv6" {
		return strings.TrimSuffix(cidr, "/64") + fmt.Sprintf("%x", 1+w.rng.Intn(0xfffe))
	}
	network := strings.TrimSuffix(cidr, "0/24")
	return network + strconv.Itoa(1+w.rng.Intn(254))
}

func chaosFamily(cidr string) string {
	if strings.Contains(cidr, ":") {
		return "ipv6"
	}
	return "ipv4"
}

// create creates the Network, a third of the time in the list form with an IPv4 item and,
// half of those times, an IPv6 one (dual stack), and reports whether it was created.
func (w *chaosWorld) create(name, kind string) bool {
	cidr, gateway := w.spec(name)
	spec := samplecrdv1.NetworkSpec{SubnetFields: samplecrdv1.SubnetFields{CIDR: cidr, Gateway: gateway}}
	withGW := "no-gw"
	if gateway != "" {
		withGW = "gw"
	}
	form := chaosFamily(cidr) + "-" + withGW
	if w.rng.Intn(3) == 0 {
		spec = samplecrdv1.NetworkSpec{Subnets: w.items(name, w.rng.Intn(2) == 0)}
		form = fmt.Sprintf("list-%d", len(spec.Subnets))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := w.nets.SamplecrdV1().Networks(w.ns).Create(ctx, &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: w.ns},
		Spec:       spec,
	}, metav1.CreateOptions{})
	switch {
	case err == nil:
		w.ops[kind+"-"+form]++
		w.live[name] = true
		return true
	case apierrors.IsAlreadyExists(err):
		// Still being deleted (finalizer pending).
		w.ops[kind+"-refused-exists"]++
	default:
		w.ops[kind+"-failed"]++
		w.t.Logf("create %s/%s: %v", w.ns, name, err)
	}
	return false
}

// items returns the list form's items of a Network: an IPv4 item and, with dual, an IPv6
// one, in ranges of the Network's own.
func (w *chaosWorld) items(name string, dual bool) []samplecrdv1.NetworkSubnet {
	idx, _ := strconv.Atoi(strings.TrimPrefix(name, "chaos-"))
	sub := w.rng.Intn(256)
	items := []samplecrdv1.NetworkSubnet{{Name: "v4", SubnetFields: samplecrdv1.SubnetFields{CIDR: fmt.Sprintf("10.%d.%d.0/24", 100+idx, sub)}}}
	if dual {
		items = append(items, samplecrdv1.NetworkSubnet{Name: "v6", SubnetFields: samplecrdv1.SubnetFields{CIDR: fmt.Sprintf("fd00:%x:%x::/64", idx+1, sub+1)}})
	}
	return items
}

// toggleItem adds the IPv6 item to a list-form Network that has none, and removes it from
// one that has it.
func (w *chaosWorld) toggleItem(n *samplecrdv1.Network) (kind, patch string) {
	items := n.Spec.Subnets[:1]
	kind = "item-remove"
	if len(n.Spec.Subnets) == 1 {
		v6 := w.items(n.Name, true)[1]
		items, kind = append(items, v6), "item-add"
	}
	b, err := json.Marshal(map[string]any{"spec": map[string]any{"subnets": items}})
	if err != nil {
		w.t.Fatalf("marshalling the items of %s: %v", n.Name, err)
	}
	return kind, string(b)
}

func (w *chaosWorld) setGateway(name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	n, err := w.nets.SamplecrdV1().Networks(w.ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		w.settle(name, "gateway", err)
		return
	}
	kind, patch := "gateway-set", fmt.Sprintf(`{"spec":{"gateway":%q}}`, w.gatewayIn(n.Spec.CIDR))
	switch {
	case len(n.Spec.Subnets) > 0:
		kind, patch = w.toggleItem(n)
	case n.Spec.Gateway != "" && w.rng.Intn(4) == 0:
		kind, patch = "gateway-clear", `{"spec":{"gateway":null}}`
	}
	_, err = w.nets.SamplecrdV1().Networks(w.ns).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	if err != nil {
		w.settle(name, kind, err)
		return
	}
	w.ops[kind]++
}

func (w *chaosWorld) delete(name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := w.nets.SamplecrdV1().Networks(w.ns).Delete(ctx, name, metav1.DeleteOptions{})
	if err != nil {
		w.settle(name, "delete", err)
		return
	}
	w.ops["delete"]++
	delete(w.live, name)
	if !slices.Contains(w.gone, name) {
		w.gone = append(w.gone, name)
	}
}

// settle counts a failed operation and corrects what the test believes exists.
func (w *chaosWorld) settle(name, kind string, err error) {
	if apierrors.IsNotFound(err) {
		w.ops[kind+"-refused-not-found"]++
		delete(w.live, name)
		return
	}
	w.ops[kind+"-failed"]++
	w.t.Logf("%s %s/%s: %v", kind, w.ns, name, err)
}
