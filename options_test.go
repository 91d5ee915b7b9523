package main

import (
	"flag"
	"strings"
	"testing"
)

func parseOptions(t *testing.T, args ...string) options {
	t.Helper()
	t.Setenv("OS_CLOUD", "")
	var o options
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	o.addFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parse %v: %v", args, err)
	}
	return o
}

func TestDefaultsWithAnEndpointAreValid(t *testing.T) {
	o := parseOptions(t, "-neutron-endpoint=http://127.0.0.1:9696/")
	if err := o.validate(); err != nil {
		t.Fatalf("defaults rejected: %v", err)
	}
	if o.kubeAPIQPS <= 5 || o.kubeAPIBurst <= 10 {
		t.Errorf("kube API rate %v/%d is client-go's small default", o.kubeAPIQPS, o.kubeAPIBurst)
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{nil, []string{"-neutron-endpoint or -os-cloud"}},
		{[]string{"-neutron-endpoint=http://x/", "-os-cloud=c"}, []string{"exclusive"}},
		{[]string{"-neutron-endpoint=http://x/", "-workers=0", "-logging-format=xml"}, []string{"-workers", "-logging-format"}},
		{[]string{"-neutron-endpoint=http://x/", "-cluster-id=a,b"}, []string{"-cluster-id"}},
		{[]string{"-neutron-endpoint=http://x/", "-retry-base-delay=1m", "-retry-max-delay=1s"}, []string{"-retry-base-delay"}},
		{[]string{"-neutron-endpoint=http://x/", "-leader-elect-lease-duration=5s", "-leader-elect-renew-deadline=10s"}, []string{"lease duration"}},
		{[]string{"-require-credentials-ref"}, []string{"-allowed-auth-urls"}},
		{[]string{"-require-credentials-ref", "-neutron-endpoint=http://x/"}, []string{"no use for -neutron-endpoint"}},
		{[]string{"-neutron-endpoint=http://x/", "-allowed-auth-urls=keystone:5000"}, []string{"-allowed-auth-urls", "not an http(s) URL"}},
		{[]string{"-neutron-endpoint=http://x/", "-own-cloud-namespace-selector=team in (a"}, []string{"-own-cloud-namespace-selector"}},
		{[]string{"-neutron-endpoint=http://x/", "-grant-enforcement=audit"}, []string{"-grant-enforcement", `"audit"`, "warn or enforce"}},
		{[]string{"-neutron-endpoint=http://x/", "-tenant-passwords=never"}, []string{"-tenant-passwords", `"never"`, "warn, refuse or allow"}},
		{[]string{"-neutron-endpoint=http://x/", "-leader-elect", "-shards=32"}, []string{"-keystone-auth-burst with -shards=32", "a burst of 20 cannot be split over 32 shards"}},
	}
	for _, tt := range tests {
		o := parseOptions(t, tt.args...)
		err := o.validate()
		if err == nil {
			t.Errorf("%v: accepted", tt.args)
			continue
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: error spans lines: %q", tt.args, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q does not mention %q", tt.args, err, w)
			}
		}
	}
}

func TestFillFromEnvironment(t *testing.T) {
	t.Setenv("POD_NAMESPACE", "")
	o := parseOptions(t, "-neutron-endpoint=http://x/")
	o.fillFromEnvironment()
	if o.leaseNamespace != "kube-system" || o.creds.OSCloud != "" {
		t.Errorf("without environment: lease namespace %q, cloud %q; want kube-system and none", o.leaseNamespace, o.creds.OSCloud)
	}

	t.Setenv("POD_NAMESPACE", "ops")
	o = parseOptions(t)
	t.Setenv("OS_CLOUD", "prod")
	o.fillFromEnvironment()
	if o.leaseNamespace != "ops" || o.creds.OSCloud != "prod" {
		t.Errorf("from environment: lease namespace %q, cloud %q; want ops and prod", o.leaseNamespace, o.creds.OSCloud)
	}

	o = parseOptions(t, "-leader-elect-namespace=mine", "-os-cloud=test")
	t.Setenv("OS_CLOUD", "prod")
	o.fillFromEnvironment()
	if o.leaseNamespace != "mine" || o.creds.OSCloud != "test" {
		t.Errorf("flags given: lease namespace %q, cloud %q; want the flags' mine and test", o.leaseNamespace, o.creds.OSCloud)
	}
}

func TestUsageGroupsFlagsAndShowsEachDefaultOnce(t *testing.T) {
	t.Setenv("OS_CLOUD", "prod")
	t.Setenv("POD_NAMESPACE", "ops")
	var o options
	own := flag.NewFlagSet("network-controller", flag.ContinueOnError)
	o.addFlags(own)
	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klogFlags.Bool("logtostderr", true, "klog flag")
	var out strings.Builder
	printUsage(&out, own, klogFlags)
	text := out.String()

	ownAt, klogAt := strings.Index(text, "\nFlags:\n"), strings.Index(text, "\nLogging flags (klog):\n")
	if !strings.HasPrefix(text, "network-controller ") || ownAt < 0 || klogAt < ownAt {
		t.Fatalf("usage lacks the summary or the two groups in order:\n%s", text)
	}
	if i := strings.Index(text, "-logtostderr"); i < klogAt {
		t.Errorf("klog's -logtostderr is not in the klog group:\n%s", text)
	}
	if i := strings.Index(text, "-workers"); i < ownAt || i > klogAt {
		t.Errorf("-workers is not in the first group:\n%s", text)
	}
	for _, flagText := range strings.Split(text, "\n  -") {
		if strings.Count(strings.ToLower(flagText), "default") > 1 {
			t.Errorf("a flag states its default twice: -%s", flagText)
		}
		for _, env := range []string{"prod", "ops"} {
			if strings.Contains(flagText, `"`+env+`"`) {
				t.Errorf("the environment leaks into -h as a default: -%s", flagText)
			}
		}
	}
}

func TestTenantsOnlyNeedsAnAllowlist(t *testing.T) {
	for _, args := range [][]string{
		{"-require-credentials-ref", "-allowed-auth-urls=https://keystone.example.com:5000/v3"},
		{"-require-credentials-ref", "-os-cloud=openstack"},
		{"-neutron-endpoint=http://x/", "-allowed-auth-urls=https://a/v3,https://b/v3"},
	} {
		o := parseOptions(t, args...)
		if err := o.validate(); err != nil {
			t.Errorf("%v rejected: %v", args, err)
		}
	}
}
