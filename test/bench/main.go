// Command bench measures the controller against a raw gophercloud loop on a real
// kube-apiserver and a real neutron-server (hack/bench.sh starts both and runs it).
//
// It drives the controller only through its flags, the Network objects' status, its
// /metrics and /readyz, and counts Neutron calls on Neutron's side, in neutron-server's
// request log, so it measures any version of the controller the same way.
//
// It owns the bench namespace and every Neutron network tagged for a "bench-" cluster ID,
// named "bench-raw-..." or named after an object of the bench namespace: run one bench at
// a time against a given Neutron and cluster.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type options struct {
	n        int
	workers  int
	rounds   int
	restartN int
	tenants  int
	tenantsN int

	dualRounds int
	dualN      int

	routedRounds   int
	routedN        int
	routedExternal string

	resyncN      int
	resyncPorts  int
	resyncPeriod time.Duration

	driftN      int
	driftRounds int

	noisyRounds   int
	noisyN        int
	noisyB        int
	noisyInterval time.Duration
	idleSamples   int

	scaleN        int
	shardN        int
	shardReplicas int
	scaleAt       intList
	scaleBaseline string

	kubeconfig         string
	neutronEndpoint    string
	neutronLog         string
	cloudsYAML         string
	osCloud            string
	adminCloud         string
	keystoneAccessLog  string
	keystoneNeutronLog string
	controllerBinary   string
	controllerArgs     string
	baseline           string
	baselineArgs       string
	baselineCommit     string
	namespace          string
	logDir             string
	commit             string

	settle  time.Duration
	quiet   time.Duration
	timeout time.Duration
}

func (o *options) addFlags(fs *flag.FlagSet) {
	fs.IntVar(&o.n, "n", 100, "Networks created and deleted per round.")
	fs.IntVar(&o.workers, "workers", 4, "Controller -workers, and the concurrency of the raw loop.")
	fs.IntVar(&o.rounds, "rounds", 3, "Rounds of raw loop + controller; 0 measures only the restart.")
	fs.IntVar(&o.restartN, "restart-n", 1000, "Realized Networks held across the restart measurement; 0 skips it.")
	fs.IntVar(&o.dualRounds, "dual-rounds", 1, "Rounds of the dual-stack stage: raw loop + controller, Networks of the list form with an IPv4 and an IPv6 item; the first also measures the raw loop with Neutron's bulk subnet create. 0 skips the stage.")
	fs.IntVar(&o.dualN, "dual-n", 0, "Networks created and deleted per dual-stack round; 0: -n.")
	fs.IntVar(&o.routedRounds, "routed-rounds", 1, "Rounds of the routed stage: raw loop + controller, one-subnet Networks each with a router of its own whose gateway is on -routed-external (spec.router); the current controller only. 0 skips the stage.")
	fs.IntVar(&o.routedN, "routed-n", 50, "Networks created and deleted per routed round, at most 200 (each router's gateway takes an address of the external network; the local cloud's public has 241).")
	fs.StringVar(&o.routedExternal, "routed-external", "public", "Name of the external network (router:external) of the routed stage's routers.")
	fs.IntVar(&o.resyncN, "resync-n", -1, "List-form Networks of the resync stage, which measures the Neutron resync's cost with ports on their subnets; -1: -restart-n; 0 skips the stage.")
	fs.IntVar(&o.resyncPorts, "resync-ports", 100, "Ports the resync stage puts on its Networks' subnets, one each on as many Networks (at most -resync-n).")
	fs.DurationVar(&o.resyncPeriod, "resync-period", 5*time.Second, "-neutron-resync-period of the controller whose resyncs the resync stage measures.")
	fs.IntVar(&o.driftN, "drift-n", 1000, "Networks of the drift stage, which measures the drift checks of Networks on a one-minute period (calls and status writes per Network per hour); 0 skips it.")
	fs.IntVar(&o.driftRounds, "drift-rounds", 2, "Rounds of checks the drift stage measures, after the first that lists the project: one a minute.")
	fs.IntVar(&o.tenants, "tenants", 10, "Projects of the tenants stage: the controller's own and tenants' with a member user and a credentials Secret each; 0 skips it.")
	fs.IntVar(&o.tenantsN, "tenants-n", 1000, "Networks of the tenants stage, spread evenly over its projects.")
	fs.IntVar(&o.noisyRounds, "noisy-rounds", 5, "Rounds of the noisy-neighbour stage, each with the fair queue and first in, first out; 0 skips the stage.")
	fs.IntVar(&o.noisyN, "noisy-n", 1000, "Networks namespace A applies at once in the noisy-neighbour stage, and the realized Networks of its restart.")
	fs.IntVar(&o.noisyB, "noisy-b", 20, "Networks namespace B creates during A's burst, one every -noisy-interval.")
	fs.DurationVar(&o.noisyInterval, "noisy-interval", 2*time.Second, "Time between two of namespace B's creates.")
	fs.IntVar(&o.idleSamples, "idle-samples", 20, "Networks created one at a time on an idle controller, for the idle time to Ready.")
	fs.IntVar(&o.shardN, "shard-n", 3000, "Networks of the shard stage, over 30 namespaces, created until all Ready by one replica and then by -shard-replicas replicas holding as many shards; 0 skips the stage.")
	fs.IntVar(&o.shardReplicas, "shard-replicas", 3, "Replicas (and shards) of the shard stage's second run.")
	fs.IntVar(&o.scaleN, "scale-n", 0, "Networks of the scale stage (make bench-scale: 10000); 0 skips the stage.")
	o.scaleAt = intList{1000}
	fs.Var(&o.scaleAt, "scale-at", "Sizes below -scale-n where the scale stage also restarts and measures the controller, comma-separated.")
	fs.StringVar(&o.scaleBaseline, "scale-baseline", "", "Another controller binary, e.g. an older build, restarted and measured beside -controller at each size of the scale stage.")
	fs.StringVar(&o.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "Admin kubeconfig of the cluster (default $KUBECONFIG).")
	fs.StringVar(&o.neutronEndpoint, "neutron-endpoint", os.Getenv("NEUTRON_ENDPOINT"), "URL of a noauth Neutron (default $NEUTRON_ENDPOINT).")
	fs.StringVar(&o.neutronLog, "neutron-log", "", "neutron-server's log file, where it logs every API request.")
	fs.StringVar(&o.cloudsYAML, "clouds-yaml", "", "clouds.yaml of the local Keystone (tenants stage).")
	fs.StringVar(&o.osCloud, "os-cloud", "k8s", "Cloud of -clouds-yaml the controller runs as in the tenants stage (its own project).")
	fs.StringVar(&o.adminCloud, "admin-cloud", "k8s-admin", "Cloud of -clouds-yaml that makes the tenants' projects and users.")
	fs.StringVar(&o.keystoneAccessLog, "keystone-access-log", "", "Keystone's request log, where the controller's token requests are counted.")
	fs.StringVar(&o.keystoneNeutronLog, "neutron-keystone-log", "", "Log of the Keystone-authenticated neutron-server, where the tenants stage counts calls.")
	fs.StringVar(&o.controllerBinary, "controller", "_output/bin/network-controller", "The controller binary.")
	fs.StringVar(&o.controllerArgs, "controller-args", "", "Extra flags for the controller, space-separated.")
	fs.StringVar(&o.baseline, "baseline", "", "Another controller binary, e.g. an older build (make bench BASELINE=<commit>), run in every round beside -controller, in alternating order.")
	fs.StringVar(&o.baselineArgs, "baseline-args", "", "Extra flags for the -baseline controller, after -controller-args, space-separated.")
	fs.BoolVar(&plainSubnets, "plain-subnets", false, "Every subnet an IPv4 /24 given by its CIDR alone, without DNS servers, route, pools or IPv6: the work a build older than those options (a -baseline before them) does the same way.")
	fs.StringVar(&o.baselineCommit, "baseline-commit", "", "Commit the -baseline controller was built from, printed with the results.")
	fs.StringVar(&o.namespace, "namespace", "network-controller-bench", "Namespace of the bench's Network objects (created if missing).")
	fs.StringVar(&o.logDir, "log-dir", "_output/bench", "Folder for the controllers' logs.")
	fs.StringVar(&o.commit, "commit", "", "Commit the controller was built from, printed with the results.")
	fs.DurationVar(&o.settle, "settle", 3*time.Second, "Neutron silence that ends a phase's call count.")
	fs.DurationVar(&o.quiet, "quiet", 10*time.Second, "Neutron silence after the informer synced that ends the restart measurement.")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Minute, "Longest wait for any one phase.")
}

func (o *options) validate() error {
	var errs []string
	if o.n < 1 || o.n > 65536 {
		errs = append(errs, "-n must be between 1 and 65536")
	}
	if o.restartN < 0 || o.restartN > 65536 {
		errs = append(errs, "-restart-n must be between 0 and 65536")
	}
	if o.tenants < 0 || o.tenants > 100 || o.tenants > 0 && (o.tenants < 2 || o.tenantsN < o.tenants || o.tenantsN > 65536) {
		errs = append(errs, "-tenants must be 0 or between 2 and 100, and -tenants-n between -tenants and 65536")
	}
	if o.workers < 1 || o.rounds < 0 || o.rounds == 0 && o.dualRounds == 0 && o.routedRounds == 0 && o.restartN == 0 && o.resyncN == 0 && o.driftN == 0 && o.tenants == 0 && o.noisyRounds == 0 && o.scaleN == 0 && o.shardN == 0 {
		errs = append(errs, "-workers must be at least 1, -rounds at least 0, and -rounds, -dual-rounds, -routed-rounds, -restart-n, -resync-n, -drift-n, -tenants, -noisy-rounds, -scale-n or -shard-n above 0")
	}
	if o.driftN < 0 || o.driftN > 0 && o.driftRounds < 1 {
		errs = append(errs, "-drift-n must not be negative, and -drift-rounds at least 1")
	}
	if o.dualRounds < 0 || o.dualN < 0 || o.dualN > 65536 {
		errs = append(errs, "-dual-rounds must be at least 0, and -dual-n between 0 and 65536")
	}
	if o.routedRounds < 0 || o.routedRounds > 0 && (o.routedN < 1 || o.routedN > 200 || o.routedExternal == "") {
		errs = append(errs, "-routed-rounds must be at least 0; with it, -routed-n between 1 and 200 and -routed-external not empty")
	}
	if o.resyncN < 0 || o.resyncN > 65536 || o.resyncPorts < 0 || o.resyncN > 0 && o.resyncPeriod <= 0 {
		errs = append(errs, "-resync-n must be between -1 and 65536, -resync-ports at least 0, and -resync-period positive")
	}
	if o.shardN < 0 || o.shardN > 16384 || o.shardN > 0 && (o.shardReplicas < 2 || o.shardReplicas > 16) {
		errs = append(errs, "-shard-n must be between 0 and 16384, and -shard-replicas between 2 and 16")
	}
	if o.scaleN < 0 || o.scaleN > 65536 {
		errs = append(errs, "-scale-n must be between 0 and 65536")
	}
	if o.noisyRounds < 0 || o.noisyRounds > 0 && (o.noisyN < 1 || o.noisyN > 65536 || o.noisyB < 1 || o.noisyInterval <= 0 || o.idleSamples < 1) {
		errs = append(errs, "-noisy-rounds must be at least 0; with it, -noisy-n between 1 and 65536, -noisy-b, -noisy-interval and -idle-samples positive")
	}
	if o.tenants > 0 && (o.cloudsYAML == "" || o.keystoneAccessLog == "" || o.keystoneNeutronLog == "") {
		errs = append(errs, "the tenants stage needs -clouds-yaml, -keystone-access-log and -neutron-keystone-log (hack/bench.sh sets them)")
	}
	if o.kubeconfig == "" || o.neutronEndpoint == "" || o.neutronLog == "" {
		errs = append(errs, "-kubeconfig, -neutron-endpoint and -neutron-log are required (hack/bench.sh sets them)")
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// resolve gives the flags that default to another flag its value.
func (o *options) resolve() {
	if o.dualN == 0 {
		o.dualN = o.n
	}
	if o.resyncN < 0 {
		o.resyncN = o.restartN
	}
	o.resyncPorts = min(o.resyncPorts, max(o.resyncN, 0))
}

func main() {
	var o options
	o.addFlags(flag.CommandLine)
	flag.Parse()
	o.resolve()
	if err := o.validate(); err != nil {
		fmt.Fprintln(os.Stderr, "bench: invalid flags:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "bench: FAILED:", err)
		os.Exit(1)
	}
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench %s: %s\n", time.Now().UTC().Format(time.TimeOnly), fmt.Sprintf(format, args...))
}

func run(ctx context.Context, o options) error {
	b, err := newBench(ctx, o)
	if err != nil {
		return err
	}
	// Cleanup must run even after Ctrl-C, so it gets a context of its own.
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		b.cleanup(cctx, "at exit")
	}()
	b.cleanup(ctx, "before starting")

	res := results{opts: o, started: time.Now().UTC()}
	res.rounds, err = newRounds(b).run(ctx)
	if err != nil {
		return err
	}
	// Printed now, so that a restart stage that fails or is interrupted does not lose them.
	res.printRounds(os.Stdout)
	if o.dualRounds > 0 {
		if res.dual, err = newDualRounds(b).run(ctx); err != nil {
			return err
		}
	}
	res.printDual(os.Stdout)
	if o.routedRounds > 0 {
		if res.routed, err = newRoutedRounds(b).run(ctx); err != nil {
			return err
		}
	}
	res.printRouted(os.Stdout)
	if o.restartN > 0 {
		rs, err := b.restartStage(ctx)
		if err != nil {
			return err
		}
		res.restart = rs
		b.cleanup(ctx, "after the restart stage")
	}
	res.printRestart(os.Stdout)
	if o.resyncN > 0 {
		rs, err := runResync(ctx, b)
		if err != nil {
			return err
		}
		res.resync = rs
		b.cleanup(ctx, "after the resync stage")
	}
	res.printResync(os.Stdout)
	if o.driftN > 0 {
		ds, err := runDrift(ctx, b)
		if err != nil {
			return err
		}
		res.drift = ds
		b.cleanup(ctx, "after the drift stage")
	}
	res.printDrift(os.Stdout)
	if o.noisyRounds > 0 {
		ns, err := runNoisy(ctx, b)
		if err != nil {
			return err
		}
		res.noisy = ns
		b.cleanup(ctx, "after the noisy-neighbour stage")
	}
	res.printNoisy(os.Stdout)
	if o.tenants > 0 {
		ts, err := runTenants(ctx, b)
		if err != nil {
			return err
		}
		res.tenants = ts
		b.cleanup(ctx, "after the tenants stage")
	}
	res.printTenants(os.Stdout)
	if o.scaleN > 0 {
		ss, err := runScale(ctx, b)
		if err != nil {
			return err
		}
		res.scale = ss
		b.cleanup(ctx, "after the scale stage")
	}
	res.printScale(os.Stdout)
	if o.shardN > 0 {
		ss, err := runShardStage(ctx, b)
		if err != nil {
			return err
		}
		res.shards = ss
	}
	res.printShards(os.Stdout)
	res.printCommand(os.Stdout)
	return nil
}

// intList is a comma-separated list of integers.
type intList []int

func (l *intList) String() string {
	parts := make([]string, len(*l))
	for i, v := range *l {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ",")
}

func (l *intList) Set(value string) error {
	*l = nil
	for _, part := range strings.Split(value, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil {
			return fmt.Errorf("not a number: %q", part)
		}
		*l = append(*l, v)
	}
	return nil
}

func randomHex(n int) string {
	buf := make([]byte, (n+1)/2)
	if _, err := rand.Read(buf); err != nil {
		panic(err)
	}
	return hex.EncodeToString(buf)[:n]
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
