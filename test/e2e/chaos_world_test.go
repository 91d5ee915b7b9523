//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"slices"
	"sort"
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

	// existingRouter is the name of the project's router that spec.router.existing names.
	existingRouter string
	// features counts the Networks created with each of router-external, router-existing,
	// router-v4-only (router.subnets names the list form's v4 item), shared and
	// port-security-off.
	features map[string]int
	// firstFeatures are the features the next creates take, one each, whatever the
	// random draws say, so that every run has each of them.
	firstFeatures []string
	// journal has a line for every operation: its time, the name, its kind and what it
	// sent or met. A failed test keeps it with the controllers' logs.
	journal []string
}

// chaosFeatures are the features of chaosWorld.firstFeatures.
var chaosFeatures = []string{"router-external", "router-existing", "shared", "port-security-off"}

func newChaosWorld(t *testing.T, rng *rand.Rand, nets versioned.Interface, ns, existingRouter string) *chaosWorld {
	return &chaosWorld{t: t, rng: rng, nets: nets, ns: ns, ops: map[string]int{}, live: map[string]bool{},
		existingRouter: existingRouter, features: map[string]int{}, firstFeatures: slices.Clone(chaosFeatures),
	}
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

// count counts an operation of kind on name, and notes it in the journal with detail
// (the spec created, the patch sent, the error).
func (w *chaosWorld) count(name, kind, detail string) {
	w.ops[kind]++
	w.journal = append(w.journal, fmt.Sprintf("%s %s %s %s", time.Now().Format("15:04:05.000000"), name, kind, detail))
}

func (w *chaosWorld) describeOps() string { return describeCounts(w.ops) }

// describeFeatures says how many Networks were created with each feature.
func (w *chaosWorld) describeFeatures() string { return describeCounts(w.features) }

func describeCounts(counts map[string]int) string {
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, 0, len(kinds))
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s=%d", k, counts[k]))
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
	case len(live) > 0 && r < 0.3:
		w.change(w.pick(live))
	case !w.growOnly && len(live) > 3 && r < 0.5:
		w.delete(w.pick(live))
	case len(w.gone) > 0 && r < 0.7 && w.recreate():
	case len(fresh) > 0:
		w.create(w.pick(fresh), "create")
	case len(w.gone) > 0 && w.recreate():
	case !w.growOnly && len(live) > 0 && r < 0.7:
		w.delete(w.pick(live))
	case len(live) > 0:
		w.change(w.pick(live))
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

// create creates the Network, a third of the time in the list form with an IPv4 item and,
// half of those times, an IPv6 one (dual stack), and reports whether it was created.
// A third of the Networks are routed, a quarter shared, a quarter without port security
// (decorate).
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
	features := w.decorate(&spec)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := w.nets.SamplecrdV1().Networks(w.ns).Create(ctx, &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: w.ns},
		Spec:       spec,
	}, metav1.CreateOptions{})
	switch {
	case err == nil:
		specJSON, _ := json.Marshal(spec)
		w.count(name, kind+"-"+form, string(specJSON))
		w.live[name] = true
		for _, f := range features {
			w.features[f]++
			w.firstFeatures = slices.DeleteFunc(w.firstFeatures, func(first string) bool { return first == f })
		}
		return true
	case apierrors.IsAlreadyExists(err):
		// Still being deleted (finalizer pending).
		w.count(name, kind+"-refused-exists", "")
	default:
		w.count(name, kind+"-failed", err.Error())
		w.t.Logf("create %s/%s: %v", w.ns, name, err)
	}
	return false
}

// change changes a live Network: half of the time its subnets (the one-subnet form's
// gateway, or the list form's IPv6 item), else its router, its sharing or its port
// security. A routed subnet's gateway changes too: the controller detaches it for the
// change and attaches it again.
func (w *chaosWorld) change(name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	n, err := w.nets.SamplecrdV1().Networks(w.ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		w.settle(name, "change", err)
		return
	}
	var kind, patch string
	patchType := types.MergePatchType
	what := w.rng.Intn(6)
	switch what {
	case 0, 1, 2:
		kind, patch = w.subnetChange(n)
	case 3:
		kind, patch = w.routerChange(n)
		patchType = types.JSONPatchType
	case 4:
		kind, patch = w.sharingChange(n)
	default:
		kind, patch = w.portSecurityChange(n)
	}
	_, err = w.nets.SamplecrdV1().Networks(w.ns).Patch(ctx, name, patchType, []byte(patch), metav1.PatchOptions{})
	if err != nil {
		w.settle(name, kind, err)
		return
	}
	w.count(name, kind, patch)
}

func (w *chaosWorld) delete(name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := w.nets.SamplecrdV1().Networks(w.ns).Delete(ctx, name, metav1.DeleteOptions{})
	if err != nil {
		w.settle(name, "delete", err)
		return
	}
	w.count(name, "delete", "")
	delete(w.live, name)
	if !slices.Contains(w.gone, name) {
		w.gone = append(w.gone, name)
	}
}

// settle counts a failed operation and corrects what the test believes exists.
func (w *chaosWorld) settle(name, kind string, err error) {
	if apierrors.IsNotFound(err) {
		w.count(name, kind+"-refused-not-found", "")
		delete(w.live, name)
		return
	}
	w.count(name, kind+"-failed", err.Error())
	w.t.Logf("%s %s/%s: %v", kind, w.ns, name, err)
}
