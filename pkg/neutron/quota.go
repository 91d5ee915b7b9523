package neutron

import (
	"regexp"
	"strings"
)

// QuotaUsage is one resource's quota in a project, as Neutron's quota details say it.
type QuotaUsage struct {
	// Limit is -1 for no limit.
	Limit    int `json:"limit"`
	Used     int `json:"used"`
	Reserved int `json:"reserved"`
}

// overQuotaList is the list in Neutron's OverQuota message, "Quota exceeded for
// resources: ['network', 'subnet']."
var overQuotaList = regexp.MustCompile(`resources: \[([^\]]{1,300})\]`)

var quotaResourceName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// OverQuotaResources returns the resources an OverQuota message of Neutron names, at most
// ten, each a plain resource name; nil when it names none.
func OverQuotaResources(message string) []string {
	m := overQuotaList.FindStringSubmatch(message)
	if m == nil {
		return nil
	}
	var out []string
	for _, item := range strings.Split(m[1], ",") {
		name := strings.Trim(strings.TrimSpace(item), `'"`)
		if quotaResourceName.MatchString(name) && len(out) < 10 {
			out = append(out, name)
		}
	}
	return out
}
