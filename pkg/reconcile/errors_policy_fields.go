package reconcile

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// Neutron refuses an attribute its policy keeps from the caller's role with 403 and the
// rules it checked, e.g. "(rule:create_router and (rule:create_router:external_gateway_info
// and (rule:create_router:external_gateway_info:network_id and
// rule:create_router:external_gateway_info:enable_snat))) is disallowed by policy". The
// spec fields that send those attributes, so that the refusal names the field to change.
var policyFields = map[string]string{
	"external_gateway_info:enable_snat":        "spec.router.enableSNAT",
	"external_gateway_info:external_fixed_ips": "spec.router.externalNetwork",
	"port_security_enabled":                    "spec.portSecurityEnabled",
	"mtu":                                      "spec.mtu",
	"target_tenant":                            "spec.sharedWith",
}

var policyRule = regexp.MustCompile(`rule:[a-z_]+:([a-z_:]+)`)

// refusedField returns the spec field of the most specific attribute among the rules of
// a policy refusal, or "".
func refusedField(ne *neutron.Error) string {
	if ne.Code != http.StatusForbidden {
		return ""
	}
	field, depth := "", 0
	for _, m := range policyRule.FindAllStringSubmatch(ne.Message, -1) {
		for attr := m[1]; attr != ""; attr = parentOf(attr) {
			if f, ok := policyFields[attr]; ok && strings.Count(attr, ":") >= depth {
				field, depth = f, strings.Count(attr, ":")+1
				break
			}
		}
	}
	return field
}

func parentOf(attr string) string {
	i := strings.LastIndexByte(attr, ':')
	if i < 0 {
		return ""
	}
	return attr[:i]
}
