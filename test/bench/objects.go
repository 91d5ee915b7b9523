package main

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	versioned "github.com/samplecrd/network-controller/pkg/client/clientset/versioned"
	informers "github.com/samplecrd/network-controller/pkg/client/informers/externalversions"
)

// apiWorkers is how many API requests the bench sends at once when it creates or deletes
// Network objects: enough that the apiserver, not the bench, sets the pace.
const apiWorkers = 16

// tracker watches the bench namespace and records when each Network first became Ready
// and when it disappeared, as the watch events arrive (so polling does not blur times).
type tracker struct {
	mu      sync.Mutex
	readyAt map[string]time.Time
	goneAt  map[string]time.Time
	// claimedAt is when the controller's finalizer first showed: its first write, so
	// the end of the Network's wait in the controller's queue.
	claimedAt map[string]time.Time
	latest    map[string]*samplecrdv1.Network
	// writes are the updates the watch showed (a new resourceVersion), in the order they
	// came: every write to an object, its status's included.
	writes []write
}

// write is an update of the Network name the watch showed at.
type write struct {
	name string
	at   time.Time
}

func startTracker(ctx context.Context, client versioned.Interface, namespace string) (*tracker, error) {
	t := &tracker{readyAt: map[string]time.Time{}, goneAt: map[string]time.Time{}, claimedAt: map[string]time.Time{},
		latest: map[string]*samplecrdv1.Network{}}
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(namespace))
	inf := factory.Samplecrd().V1().Networks().Informer()
	_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { t.seen(obj) },
		UpdateFunc: func(old, obj any) { t.wrote(old, obj); t.seen(obj) },
		DeleteFunc: func(obj any) {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			if n, ok := obj.(*samplecrdv1.Network); ok {
				t.mu.Lock()
				t.goneAt[n.Name] = time.Now()
				delete(t.latest, n.Name)
				t.mu.Unlock()
			}
		},
	})
	if err != nil {
		return nil, fmt.Errorf("watching Networks: %w", err)
	}
	factory.Start(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		return nil, fmt.Errorf("the Network watch did not sync")
	}
	return t, nil
}

func (t *tracker) seen(obj any) {
	n, ok := obj.(*samplecrdv1.Network)
	if !ok {
		return
	}
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.latest[n.Name] = n
	delete(t.goneAt, n.Name)
	if _, done := t.readyAt[n.Name]; !done && n.IsReady() {
		t.readyAt[n.Name] = now
	}
	if _, done := t.claimedAt[n.Name]; !done && slices.Contains(n.Finalizers, samplecrdv1.FinalizerName) {
		t.claimedAt[n.Name] = now
	}
}

// wrote counts an update that changed the object.
func (t *tracker) wrote(old, obj any) {
	o, ok1 := old.(*samplecrdv1.Network)
	n, ok2 := obj.(*samplecrdv1.Network)
	if !ok1 || !ok2 || o.ResourceVersion == n.ResourceVersion {
		return
	}
	now := time.Now()
	t.mu.Lock()
	t.writes = append(t.writes, write{name: n.Name, at: now})
	t.mu.Unlock()
}

// writesBetween returns the writes the watch showed from from until before to: in all,
// and the Networks written.
func (t *tracker) writesBetween(from, to time.Time) (writes, networks int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	written := map[string]bool{}
	for _, w := range t.writes {
		if !w.at.Before(from) && w.at.Before(to) {
			writes++
			written[w.name] = true
		}
	}
	return writes, len(written)
}

// addresses returns how many of the named Networks show in their status the addresses of
// each of their list form's subnets, and the addresses those say ports hold, summed.
func (t *tracker) addresses(names []string) (counted int, used int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, name := range names {
		n := t.latest[name]
		if n == nil || len(n.Status.Subnets) == 0 {
			continue
		}
		all := true
		for _, s := range n.Status.Subnets {
			if s.Addresses == nil {
				all = false
				continue
			}
			used += s.Addresses.Used
		}
		if all {
			counted++
		}
	}
	return counted, used
}

// times returns when the named Network was claimed by the controller and became Ready.
func (t *tracker) times(name string) (claimed, ready time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.claimedAt[name], t.readyAt[name]
}

// waitAll waits until times records a time for every name and returns the latest of
// them. It stops early when alive returns an error (the controller exited).
func (t *tracker) waitAll(ctx context.Context, names []string, times func(*tracker) map[string]time.Time, what string, timeout time.Duration, alive func() error) (time.Time, error) {
	deadline := time.Now().Add(timeout)
	for {
		if err := alive(); err != nil {
			return time.Time{}, err
		}
		t.mu.Lock()
		recorded := times(t)
		var last time.Time
		var missing []string
		for _, n := range names {
			at, ok := recorded[n]
			if !ok {
				missing = append(missing, n)
			} else if at.After(last) {
				last = at
			}
		}
		var sample []string
		if len(missing) > 0 && time.Now().After(deadline) {
			for _, n := range missing[:min(len(missing), 5)] {
				sample = append(sample, t.describe(n))
			}
		}
		t.mu.Unlock()
		if len(missing) == 0 {
			return last, nil
		}
		if sample != nil {
			return time.Time{}, fmt.Errorf("%d of %d Networks not %s after %s, e.g. %s", len(missing), len(names), what, timeout, strings.Join(sample, "; "))
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (t *tracker) describe(name string) string {
	n := t.latest[name]
	if n == nil {
		return name + ": not in the watch cache"
	}
	c := meta.FindStatusCondition(n.Status.Conditions, samplecrdv1.ConditionReady)
	if c == nil {
		return name + ": no Ready condition"
	}
	return fmt.Sprintf("%s: Ready=%s %s %q (deletionTimestamp %v)", name, c.Status, c.Reason, c.Message, n.DeletionTimestamp)
}

func (t *tracker) waitReady(ctx context.Context, names []string, timeout time.Duration, alive func() error) (time.Time, error) {
	return t.waitAll(ctx, names, func(t *tracker) map[string]time.Time { return t.readyAt }, "Ready", timeout, alive)
}

func (t *tracker) waitGone(ctx context.Context, names []string, timeout time.Duration, alive func() error) (time.Time, error) {
	return t.waitAll(ctx, names, func(t *tracker) map[string]time.Time { return t.goneAt }, "gone", timeout, alive)
}

// networkNames returns the object names of a stage: <stage>-0000, <stage>-0001, ...
func networkNames(stage string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%04d", stage, i)
	}
	return out
}

// createNetworks creates one Network per name, the i-th with the subnet benchSubnetOf(i),
// on the controller's own cloud.
func createNetworks(ctx context.Context, client versioned.Interface, namespace string, names []string) error {
	return createNetworksUsing(nil)(ctx, client, namespace, names)
}

// createNetworksUsing is createNetworks whose i-th Network uses the credentials in Secret
// secrets[i % len(secrets)]; "" (or no secrets) is the controller's own cloud.
func createNetworksUsing(secrets []string) func(context.Context, versioned.Interface, string, []string) error {
	return func(ctx context.Context, client versioned.Interface, namespace string, names []string) error {
		return parallel(ctx, len(names), apiWorkers, func(ctx context.Context, i int) error {
			secret := ""
			if len(secrets) > 0 {
				secret = secrets[i%len(secrets)]
			}
			return createNetworkUsing(ctx, client, namespace, names[i], i, secret)
		})
	}
}

// createNetworkAt creates the Network name with the subnet benchSubnetOf(i), on the
// controller's own cloud.
func createNetworkAt(ctx context.Context, client versioned.Interface, namespace, name string, i int) error {
	return createNetworkUsing(ctx, client, namespace, name, i, "")
}

// createNetworkUsing creates the Network name with the subnet benchSubnetOf(i), with the
// credentials in Secret secret ("": the controller's own cloud).
func createNetworkUsing(ctx context.Context, client versioned.Interface, namespace, name string, i int, secret string) error {
	spec := samplecrdv1.NetworkSpec{SubnetFields: subnetFields(benchSubnetOf(i))}
	if secret != "" {
		spec.CloudCredentialsRef = &samplecrdv1.CloudCredentialsRef{SecretName: secret, CloudName: tenantCloud}
	}
	return createNetworkSpec(ctx, client, namespace, name, spec)
}

// createListNetworks returns a change function that creates list-form Networks on the
// controller's own cloud, the i-th with the items items(i).
func createListNetworks(items func(i int) []benchItem) func(context.Context, versioned.Interface, string, []string) error {
	return func(ctx context.Context, client versioned.Interface, namespace string, names []string) error {
		return parallel(ctx, len(names), apiWorkers, func(ctx context.Context, i int) error {
			var spec samplecrdv1.NetworkSpec
			for _, it := range items(i) {
				spec.Subnets = append(spec.Subnets, samplecrdv1.NetworkSubnet{Name: it.name, SubnetFields: subnetFields(it.subnet)})
			}
			return createNetworkSpec(ctx, client, namespace, names[i], spec)
		})
	}
}

// createRoutedNetworks returns a change function that creates one-subnet Networks on the
// controller's own cloud, the i-th with the subnet benchRoutedOf(i) and a router of its own
// whose gateway is on the external network named external (spec.router.externalNetwork).
func createRoutedNetworks(external string) func(context.Context, versioned.Interface, string, []string) error {
	return func(ctx context.Context, client versioned.Interface, namespace string, names []string) error {
		return parallel(ctx, len(names), apiWorkers, func(ctx context.Context, i int) error {
			spec := samplecrdv1.NetworkSpec{SubnetFields: subnetFields(benchRoutedOf(i)),
				Router: &samplecrdv1.NetworkRouter{ExternalNetwork: &samplecrdv1.NeutronRef{Name: external}}}
			return createNetworkSpec(ctx, client, namespace, names[i], spec)
		})
	}
}

// subnetFields are the spec's fields of the subnet b, in either form.
func subnetFields(b benchSubnet) samplecrdv1.SubnetFields {
	f := samplecrdv1.SubnetFields{CIDR: b.CIDR, DNSNameservers: b.DNS,
		IPv6AddressMode: samplecrdv1.IPv6Mode(b.IPv6Mode), IPv6RAMode: samplecrdv1.IPv6Mode(b.IPv6Mode)}
	if !b.plain() {
		dhcp := true
		f.HostRoutes = []samplecrdv1.HostRoute{{Destination: b.RouteDestination, NextHop: b.RouteNextHop}}
		f.EnableDHCP = &dhcp
	}
	for _, p := range b.Pools {
		f.AllocationPools = append(f.AllocationPools, samplecrdv1.AllocationPool{Start: p[0], End: p[1]})
	}
	if b.NoGateway {
		f.GatewayMode = samplecrdv1.GatewayModeNone
	}
	return f
}

// createNetworkSpec creates the Network name with spec.
func createNetworkSpec(ctx context.Context, client versioned.Interface, namespace, name string, spec samplecrdv1.NetworkSpec) error {
	_, err := client.SamplecrdV1().Networks(namespace).Create(ctx, &samplecrdv1.Network{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec:       spec,
	}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating Network %s/%s: %w", namespace, name, err)
	}
	return nil
}

// deleteNetworks asks for the deletion of every named Network; the controller's
// finalizer keeps each until its Neutron side is gone.
func deleteNetworks(ctx context.Context, client versioned.Interface, namespace string, names []string) error {
	return parallel(ctx, len(names), apiWorkers, func(ctx context.Context, i int) error {
		err := client.SamplecrdV1().Networks(namespace).Delete(ctx, names[i], metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting Network %s/%s: %w", namespace, names[i], err)
		}
		return nil
	})
}

// purgeNetworks removes every Network of the namespace at once, finalizers included: for
// cleanup when no controller runs (the bench deletes the Neutron side itself).
func purgeNetworks(ctx context.Context, client versioned.Interface, namespace string) (int, error) {
	list, err := client.SamplecrdV1().Networks(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, fmt.Errorf("listing Networks in %s: %w", namespace, err)
	}
	err = parallel(ctx, len(list.Items), apiWorkers, func(ctx context.Context, i int) error {
		name := list.Items[i].Name
		if len(list.Items[i].Finalizers) > 0 {
			_, err := client.SamplecrdV1().Networks(namespace).Patch(ctx, name, types.MergePatchType,
				[]byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
			if err != nil && !apierrors.IsNotFound(err) {
				return fmt.Errorf("removing the finalizers of Network %s/%s: %w", namespace, name, err)
			}
		}
		err := client.SamplecrdV1().Networks(namespace).Delete(ctx, name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("deleting Network %s/%s: %w", namespace, name, err)
		}
		return nil
	})
	return len(list.Items), err
}

// foreignNetworks lists Networks outside the bench's namespaces: a controller reconciles
// every namespace, so it would work on those too and distort the counts.
func foreignNetworks(ctx context.Context, client versioned.Interface, namespaces []string) ([]string, error) {
	list, err := client.SamplecrdV1().Networks(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("listing Networks: %w", err)
	}
	var out []string
	for _, n := range list.Items {
		if !slices.Contains(namespaces, n.Namespace) {
			out = append(out, n.Namespace+"/"+n.Name)
		}
	}
	sort.Strings(out)
	return out, nil
}
