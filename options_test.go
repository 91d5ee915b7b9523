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
