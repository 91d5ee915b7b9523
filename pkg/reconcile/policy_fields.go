package reconcile

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Neutron refuses an attribute its policy keeps from the caller's role with 403 and
// "(rule:<action>:<attribute>[:<sub-attribute>]) is disallowed by policy". The spec
// fields that send those attributes, so that the refusal names the field to change.
var policyFields = map[string]string{
	"external_gateway_info:enable_snat":        "spec.router.enableSNAT",
	"external_gateway_info:external_fixed_ips": "spec.router.externalNetwork",
	"external_gateway_info:network_id":         "spec.router.externalNetwork",
	"external_gateway_info":                    "spec.router.externalNetwork",
	"port_security_enabled":                    "spec.portSecurityEnabled",
	"mtu":                                      "spec.mtu",
	"target_tenant":                            "spec.sharedWith",
	"subnetpool_id":                            "spec.subnets[].subnetPool",
}

var policyRule = regexp.MustCompile(`rule:[a-z_]+:([a-z_:]+)\)`)

// refusedField returns the spec field whose attribute Neutron's policy refused, or "".
func refusedField(ne *neutron.Error) string {
	if ne.Code != http.StatusForbidden {
		return ""
	}
	m := policyRule.FindStringSubmatch(ne.Message)
	if m == nil {
		return ""
	}
	// The longest known attribute path the rule names wins: enable_snat over its parent.
	for attr := m[1]; attr != ""; {
		if field, ok := policyFields[attr]; ok {
			return field
		}
		i := strings.LastIndexByte(attr, ':')
		if i < 0 {
			break
		}
		attr = attr[:i]
	}
	return ""
}
