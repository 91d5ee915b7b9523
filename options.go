package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/samplecrd/network-controller/pkg/credentials"
	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/scope"
	"github.com/samplecrd/network-controller/pkg/shard"
)

// options are the command-line flags.
type options struct {
	kubeconfig   string
	master       string
	kubeAPIQPS   float64
	kubeAPIBurst int
	workers      int

	neutronQPS   float64
	neutronBurst int
	// The budget of each OpenStack project within the total.
	neutronProjectQPS   float64
	neutronProjectBurst int
	fairQueue           bool

	// creds are the credentials' flags: the controller's own cloud, tenants' Keystone
	// URLs, grants, passwords, Secrets watched, the Keystone rate, the expiry warning.
	creds      credentials.Options
	namespaces scope.Namespaces

	clusterID           string
	neutronResyncPeriod time.Duration
	orphanGracePeriod   time.Duration
	retryBaseDelay      time.Duration
	retryMaxDelay       time.Duration

	leaderElect           bool
	shards                int
	leaseName             string
	leaseNamespace        string
	leaseDuration         time.Duration
	leaseRenewDeadline    time.Duration
	leaseRetryPeriod      time.Duration
	metricsBindAddress    string
	metricsSecure         bool
	metricsCertDir        string
	healthProbeAddress    string
	profilingAddress      string
	shutdownTimeout       time.Duration
	loggingFormat         string
	printVersion          bool
	neutronStartupTimeout time.Duration
}

// maxShards bounds -shards: each shard held costs a Lease write every retry period.
const maxShards = 64

func (o *options) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
	fs.StringVar(&o.master, "master", "", "The address of the Kubernetes API server. Overrides any value in kubeconfig. Only required if out-of-cluster.")
	// client-go's default of 5 QPS / burst 10 is meant for small tools; a create writes
	// twice (finalizer, then status), so 5 QPS would cap a controller with thousands of
	// Networks at ~2 creates per second after a restart.
	fs.Float64Var(&o.kubeAPIQPS, "kube-api-qps", 50, "Sustained queries per second to the Kubernetes API.")
	fs.IntVar(&o.kubeAPIBurst, "kube-api-burst", 100, "Burst of queries to the Kubernetes API.")
	fs.IntVar(&o.workers, "workers", 4, "Networks reconciled in parallel.")

	fs.StringVar(&o.creds.NeutronEndpoint, "neutron-endpoint", "", "URL of a Neutron API that needs no authentication (auth_strategy = noauth), e.g. http://127.0.0.1:9696/. Exclusive with -os-cloud.")
	fs.StringVar(&o.creds.OSCloud, "os-cloud", "", "Name of the cloud in clouds.yaml to authenticate to with Keystone. Default: $OS_CLOUD. Exclusive with -neutron-endpoint.")

	fs.BoolVar(&o.creds.RequireCredentialsRef, "require-credentials-ref", false, "Refuse Networks without spec.cloudCredentialsRef (Ready=False, CredentialsRefRequired) instead of creating them in the controller's own cloud, which is then not used at all.")
	fs.StringVar(&o.creds.OwnCloudNamespaces, "own-cloud-namespace-selector", "", "Label selector of the namespaces whose Networks may use the controller's own cloud (no spec.cloudCredentialsRef), e.g. network-controller.samplecrd.k8s.io/own-cloud=true; the others get Ready=False, CredentialsRefRequired. Networks already made there are still deleted. Default: every namespace.")
	fs.StringVar(&o.creds.GrantEnforcement, "grant-enforcement", credentials.DefaultGrantEnforcement, "What becomes of a power in effect (a share, an interface on an existing router, an import) that no ClusterIdentity grants any more: warn keeps it and reports it (condition GrantMissing, a Warning Event, network_controller_networks_without_grant), enforce withdraws it. Neither makes anything new without a grant, and neither deletes what deletionPolicy Retain keeps: its deletion waits for the grant.")
	fs.StringVar(&o.creds.TenantPasswords, "tenant-passwords", credentials.DefaultTenantPasswords, "What becomes of a password (auth_type password or v3password) in a namespace's credentials Secret: warn uses it and each Network using it says so (condition PasswordCredentials), refuse refuses it (PasswordCredentialsRefused) before any token request, allow uses it without a word; the next version refuses passwords unless told otherwise. Keystone locks a password's user out after refused logins and a Secret can name any user: the controller then sends at most 2 refused requests in a row per user, counted across controllers sharing -keystone-refusals-configmap, and refuses user spellings Keystone's database may take for another user; application credentials are never locked out. ClusterIdentity Secrets are the operator's and never refused.")
	fs.Var(&o.namespaces, "namespace", "Watch and reconcile only Networks (and read only Secrets) in this namespace; repeat it, or give a comma-separated list, for several. Default: all namespaces. With only Roles in these namespaces (deploy/namespaced/), also give -cluster-id.")
	fs.StringVar(&o.creds.AllowedAuthURLs, "allowed-auth-urls", "", "Comma-separated Keystone URLs the clouds of credentials Secrets may authenticate at. Default: the auth_url of -os-cloud; with -neutron-endpoint and no -os-cloud, none.")
	// A watch costs about 33 KiB, 4 goroutines and an apiserver watch whether the Secret
	// exists or not: its namespace's Networks decide how many, so they are bounded.
	fs.IntVar(&o.creds.MaxSecretsPerNamespace, "max-credentials-secrets-per-namespace", 32, "Most credentials Secrets of one namespace the controller watches at once, those it may not read included; a Network naming one more gets Ready=False, TooManyCredentialsSecrets, until another is no longer named. 0: no bound.")
	fs.IntVar(&o.creds.MaxSecrets, "max-credentials-secrets", 2000, "Credentials Secrets the controller watches at once, all namespaces together (ClusterIdentities' Secrets, and those it may not read, not counted). Shared: once reached, a namespace holding fewer watches than this divided by the namespaces holding watches still gets one, up to twice this in all; the others' Networks get TooManyCredentialsSecrets until a watch is released. 0: no bound.")
	fs.BoolVar(&o.creds.AllowUnverifiedTLS, "allow-unverified-tls", false, "Let the clouds of credentials Secrets set verify: false. Then whoever can intercept the controller's traffic to an allowed Keystone can answer for it and claim another tenant's project; such a cloud shares no store or budget with another, but its own Networks are at the interceptor's mercy. Give the CA in the Secret's key cacert instead.")

	// Neutron is usually shared by a whole cloud. In steady state and after a restart the
	// controller makes next to no calls; this ceiling matters when many Networks are created
	// at once, and is set above what one neutron-server answers, so it only stops a flood.
	fs.Float64Var(&o.neutronQPS, "neutron-qps", 50, "Sustained Neutron API requests per second.")
	fs.IntVar(&o.neutronBurst, "neutron-burst", 100, "Burst of Neutron API requests.")
	fs.Float64Var(&o.creds.KeystoneAuthQPS, "keystone-auth-qps", 2, "Token requests per second to Keystone for credentials Secrets, all of them together, shared in turns between namespaces. Besides, no password's user gets more than 2 refused requests in a row, so no Secret can get an account locked out.")
	fs.StringVar(&o.creds.RefusalsConfigMap, "keystone-refusals-configmap", "network-controller-keystone-refusals", "ConfigMap, in the namespace of -leader-elect-namespace, where the controller keeps its counts of refused token requests per Keystone user, so that a restart does not let Secrets get a user locked out. Empty: counts in memory only.")
	fs.IntVar(&o.creds.KeystoneAuthBurst, "keystone-auth-burst", 20, "Burst of token requests to Keystone for credentials Secrets, all of them together.")
	// Half the total: one project's burst leaves the other half to the others. A worker
	// does not wait for a project's budget; the Network is deferred and the worker takes
	// other work.
	fs.Float64Var(&o.neutronProjectQPS, "neutron-project-qps", 25, "Sustained Neutron API requests per second of one OpenStack project, within -neutron-qps. Networks of a project over it are deferred, not waited for.")
	fs.IntVar(&o.neutronProjectBurst, "neutron-project-burst", 50, "Burst of Neutron API requests of one OpenStack project, within -neutron-burst.")
	fs.BoolVar(&o.fairQueue, "fair-queue", true, "Hand Networks to workers in turns across namespaces, changes users make before the initial list, the Neutron resync and retries. false: first in, first out.")
	fs.StringVar(&o.clusterID, "cluster-id", "", "Identifies this cluster in the description and tags of the Neutron resources it creates; the controller never touches resources of another cluster. Default: the UID of the kube-system namespace.")
	fs.DurationVar(&o.neutronResyncPeriod, "neutron-resync-period", 5*time.Minute, "How often Neutron is compared with the cluster to repair changes made in Neutron and collect orphans. 0 disables.")
	fs.DurationVar(&o.orphanGracePeriod, "orphan-grace-period", 10*time.Minute, "Minimum age of a Neutron network before it may be collected as an orphan.")
	fs.DurationVar(&o.retryBaseDelay, "retry-base-delay", 50*time.Millisecond, "First delay before a failed Network is retried; it doubles on each failure.")
	fs.DurationVar(&o.retryMaxDelay, "retry-max-delay", 2*time.Minute, "Longest delay between retries of a failed Network; after an outage everything converges within it.")

	fs.BoolVar(&o.leaderElect, "leader-elect", true, "Elect a leader through a Lease so that only one replica reconciles.")
	fs.IntVar(&o.shards, "shards", 1, fmt.Sprintf("Number of shards the namespaces are cut into, by a hash of their name (1 to %d). With 1, one elected replica reconciles every Network; with more, each shard has a Lease of its own, named after -leader-elect-lease-name, every replica holds its share of the shards and reconciles their Networks only, watching only those where the apiserver filters by shard (feature gate ShardedListAndWatch), and the Neutron and Keystone rates are split by the shards held. Needs -leader-elect; every replica must run with the same value, and -neutron-burst, -neutron-project-burst and -keystone-auth-burst must each be at least the number of shards.", maxShards))
	fs.StringVar(&o.leaseName, "leader-elect-lease-name", "network-controller", "Name of the leader election Lease.")
	fs.StringVar(&o.leaseNamespace, "leader-elect-namespace", "", "Namespace of the leader election Lease. Default: $POD_NAMESPACE, else kube-system.")
	fs.DurationVar(&o.leaseDuration, "leader-elect-lease-duration", 15*time.Second, "How long a standby waits after the last renewal before taking over.")
	fs.DurationVar(&o.leaseRenewDeadline, "leader-elect-renew-deadline", 10*time.Second, "How long the leader keeps trying to renew before it gives up leadership.")
	fs.DurationVar(&o.leaseRetryPeriod, "leader-elect-retry-period", 2*time.Second, "How often candidates try to acquire or renew the Lease.")
	fs.StringVar(&o.metricsBindAddress, "metrics-bind-address", "127.0.0.1:8080", "Address serving Prometheus /metrics; empty or 0 disables.")
	fs.BoolVar(&o.metricsSecure, "metrics-secure", false, "Serve /metrics over HTTPS, only to callers whose bearer token the apiserver authenticates (TokenReview) and allows to get the non-resource URL /metrics (SubjectAccessReview), e.g. through the ClusterRole network-controller-metrics-reader. Answers are cached for up to a minute.")
	fs.StringVar(&o.metricsCertDir, "metrics-cert-dir", "", "With -metrics-secure: folder with the serving certificate tls.crt and key tls.key (a mounted kubernetes.io/tls Secret, e.g. from cert-manager), read again when they change. Default: a self-signed certificate made at startup.")
	fs.StringVar(&o.healthProbeAddress, "health-probe-bind-address", "127.0.0.1:8081", "Address serving /healthz and /readyz; empty or 0 disables.")
	fs.StringVar(&o.profilingAddress, "profiling-bind-address", "", "Address serving Go's runtime profiles under /debug/pprof/ (heap, goroutines, CPU), e.g. 127.0.0.1:8082; empty or 0 (the default) disables.")
	fs.DurationVar(&o.shutdownTimeout, "shutdown-timeout", 30*time.Second, "Longest wait for items in flight after SIGTERM before exiting anyway.")
	fs.StringVar(&o.loggingFormat, "logging-format", "text", "Log format: text (klog) or json (one JSON object per line, in the format of Kubernetes' components: ts, caller, msg, v, err).")
	fs.DurationVar(&o.creds.ExpiryWarning, "credentials-expiry-warning", 7*24*time.Hour, "How long before credentials expire (Keystone's application credential expires_at, or the user's password_expires_at) the Networks using them get the CredentialsExpiring condition and a Warning Event. 0 never warns.")
	fs.BoolVar(&o.printVersion, "version", false, "Print the version, commit and Go version of this build, and exit.")
	fs.DurationVar(&o.neutronStartupTimeout, "neutron-startup-timeout", 30*time.Second, "How long startup retries, with backoff, the apiserver (and the CRD) and then Neutron before exiting with an error.")
}

// fillFromEnvironment gives flags left empty their defaults from the environment. These
// are not flag defaults so that -h shows each default once, whatever the environment.
func (o *options) fillFromEnvironment() {
	if o.creds.OSCloud == "" {
		o.creds.OSCloud = os.Getenv("OS_CLOUD")
	}
	if o.leaseNamespace == "" {
		o.leaseNamespace = os.Getenv("POD_NAMESPACE")
	}
	if o.leaseNamespace == "" {
		o.leaseNamespace = metav1.NamespaceSystem
	}
}

// validate returns every problem with the flags at once, on one line.
func (o *options) validate() error {
	var errs []error
	errs = append(errs, o.creds.Validate()...)
	if o.workers < 1 {
		errs = append(errs, fmt.Errorf("-workers must be at least 1, got %d", o.workers))
	}
	if o.kubeAPIQPS <= 0 || o.kubeAPIBurst < 1 {
		errs = append(errs, errors.New("-kube-api-qps and -kube-api-burst must be positive"))
	}
	if o.neutronQPS <= 0 || o.neutronBurst < 1 {
		errs = append(errs, errors.New("-neutron-qps and -neutron-burst must be positive"))
	}
	if o.neutronProjectQPS <= 0 || o.neutronProjectBurst < 1 {
		errs = append(errs, errors.New("-neutron-project-qps and -neutron-project-burst must be positive"))
	}
	if o.clusterID != "" {
		if err := neutron.ValidateClusterID(o.clusterID); err != nil {
			errs = append(errs, fmt.Errorf("-cluster-id: %w", err))
		}
	}
	if o.retryBaseDelay <= 0 || o.retryMaxDelay < o.retryBaseDelay {
		errs = append(errs, errors.New("-retry-base-delay must be positive and at most -retry-max-delay"))
	}
	if o.neutronResyncPeriod < 0 || o.orphanGracePeriod < 0 {
		errs = append(errs, errors.New("-neutron-resync-period and -orphan-grace-period must not be negative"))
	}
	if o.leaderElect && !(o.leaseDuration > o.leaseRenewDeadline && o.leaseRenewDeadline > o.leaseRetryPeriod && o.leaseRetryPeriod > 0) {
		errs = append(errs, errors.New("leader election needs lease duration > renew deadline > retry period > 0"))
	}
	if o.shards < 1 || o.shards > maxShards {
		errs = append(errs, fmt.Errorf("-shards must be from 1 to %d, got %d", maxShards, o.shards))
	}
	if o.shards > 1 && !o.leaderElect {
		errs = append(errs, errors.New("-shards above 1 needs -leader-elect: each shard is held by a Lease"))
	}
	if o.shards > 1 {
		// The replicas' bursts must add up to at most the cloud's, each holder's at least 1.
		for _, b := range []struct {
			flag  string
			burst int
		}{{"-neutron-burst", o.neutronBurst}, {"-neutron-project-burst", o.neutronProjectBurst}, {"-keystone-auth-burst", o.creds.KeystoneAuthBurst}} {
			if err := (shard.Budget{Burst: b.burst}).CheckSplit(o.shards); err != nil {
				errs = append(errs, fmt.Errorf("%s with -shards=%d: %w", b.flag, o.shards, err))
			}
		}
	}
	if o.metricsCertDir != "" && !o.metricsSecure {
		errs = append(errs, errors.New("-metrics-cert-dir needs -metrics-secure"))
	}
	if o.loggingFormat != "text" && o.loggingFormat != "json" {
		errs = append(errs, fmt.Errorf("-logging-format must be text or json, got %q", o.loggingFormat))
	}
	if len(errs) == 0 {
		return nil
	}
	msgs := make([]string, len(errs))
	for i, err := range errs {
		msgs[i] = err.Error()
	}
	return fmt.Errorf("invalid flags: %s", strings.Join(msgs, "; "))
}

// printUsage is -h: what the controller does, its own flags, then klog's apart.
func printUsage(w io.Writer, own, klogFlags *flag.FlagSet) {
	fmt.Fprint(w, `network-controller turns each samplecrd.k8s.io/v1 Network into an OpenStack Neutron
network with its subnets (one at the top of the spec, or spec.subnets), attached to a router
and shared with other projects when the spec asks; it keeps them in step, and deletes them
with the Network unless its deletionPolicy is Retain. A Network with spec.import only
reports an existing network.

Usage: network-controller [flags]
  Kubernetes: in-cluster, or -kubeconfig. Neutron: -os-cloud (Keystone, clouds.yaml) or
  -neutron-endpoint (no authentication) for Networks without spec.cloudCredentialsRef;
  the others authenticate with the clouds.yaml of the Secret or ClusterIdentity they name.

Flags:
`)
	own.SetOutput(w)
	own.PrintDefaults()
	fmt.Fprint(w, "\nLogging flags (klog):\n")
	klogFlags.SetOutput(w)
	klogFlags.PrintDefaults()
}
