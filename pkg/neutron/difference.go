package neutron

import (
	"fmt"
	"strings"
)

// Difference is one attribute whose observed value is not the desired one, in words.
type Difference struct {
	Attribute string
	Observed  string
	Desired   string
}

func (d Difference) String() string {
	return fmt.Sprintf("%s from %s to %s", d.Attribute, d.Observed, d.Desired)
}

// Describe says in words what differs, e.g. "gateway from 10.0.0.1 to 10.0.0.9".
func Describe(diffs []Difference) string {
	parts := make([]string, len(diffs))
	for i, d := range diffs {
		parts[i] = d.String()
	}
	return strings.Join(parts, ", ")
}

func routesText(routes []HostRoute) string {
	parts := make([]string, len(routes))
	for i, r := range routes {
		parts[i] = r.Destination + " via " + r.NextHop
	}
	return listText(parts)
}

func listText(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(items, ",")
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// optionalOnOff is onOff of a setting Neutron may not report: "unset" when it does not.
func optionalOnOff(on *bool) string {
	if on == nil {
		return "unset"
	}
	return onOff(*on)
}

func poolsText(pools []Pool) string {
	parts := make([]string, len(pools))
	for i, p := range pools {
		parts[i] = p.Start + "-" + p.End
	}
	return listText(parts)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
