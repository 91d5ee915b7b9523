package shard

import (
	"strings"
	"testing"
)

// A configuration that would let another replica take a shard before its holder gives it
// up is refused.
func TestConfigValidate(t *testing.T) {
	valid := Config{Namespace: "system", Name: "nc", Shards: 2, Identity: "a",
		LeaseDuration: leaseDuration, RenewDeadline: renewDeadline, RetryPeriod: retryPeriod}
	if err := valid.Validate(); err != nil {
		t.Fatalf("the defaults are refused: %v", err)
	}
	if got := valid.callTimeout(); got <= 0 || got >= valid.RenewDeadline {
		t.Fatalf("call timeout %v, want positive and under the renew deadline %v", got, valid.RenewDeadline)
	}
	for name, change := range map[string]func(*Config){
		"renew deadline not under the lease duration": func(c *Config) { c.RenewDeadline = c.LeaseDuration },
		"retry period not under the renew deadline":   func(c *Config) { c.RetryPeriod = c.RenewDeadline },
		"no retry period": func(c *Config) { c.RetryPeriod = 0 },
		"no shard":        func(c *Config) { c.Shards = 0 },
		"no identity":     func(c *Config) { c.Identity = "" },
	} {
		c := valid
		change(&c)
		err := c.Validate()
		if err == nil {
			t.Errorf("%s: accepted %+v", name, c)
			continue
		}
		if !strings.Contains(err.Error(), "invalid shard holder configuration") {
			t.Errorf("%s: error %q does not say what it is about", name, err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: NewHolder did not refuse it", name)
				}
			}()
			NewHolder(c, leaseClient().CoordinationV1(), &recordedWork{timeline: &timeline{}})
		}()
	}
}
