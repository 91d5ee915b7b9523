package networktest

import (
	"testing"

	dto "github.com/prometheus/client_model/go"

	"github.com/samplecrd/network-controller/pkg/metrics"
)

// Series returns the samples of the metric family name, keyed by their label values
// joined with "/".
func Series(t *testing.T, m *metrics.Metrics, name string) map[string]*dto.Metric {
	t.Helper()
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*dto.Metric{}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, s := range f.GetMetric() {
			key := ""
			for i, l := range s.GetLabel() {
				if i > 0 {
					key += "/"
				}
				key += l.GetValue()
			}
			out[key] = s
		}
	}
	return out
}
