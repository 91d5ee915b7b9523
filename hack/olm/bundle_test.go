package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"
	"sigs.k8s.io/yaml"
)

// The bundle made from the repository passes every suite, and carries what deploy/
// applies: the rights of the ServiceAccount, the Deployment with kustomize's image.
func TestBundleOfTheRepositoryIsValid(t *testing.T) {
	out := filepath.Join(t.TempDir(), "bundle")
	if err := generate("../..", out); err != nil {
		t.Fatalf("generate: %v", err)
	}
	var report strings.Builder
	if err := validate(out, &report); err != nil {
		t.Fatalf("validate: %v\n%s", err, report.String())
	}
	csv := readCSV(t, out)
	if got := csv.Spec.InstallStrategy.StrategySpec.DeploymentSpecs[0].Spec.Template.Spec.Containers[0].Image; !strings.HasPrefix(got, "network-controller:v") {
		t.Errorf("image = %q, want deploy/base/kustomization.yaml's network-controller:<VERSION>", got)
	}
	var statusRule bool
	for _, p := range csv.Spec.InstallStrategy.StrategySpec.ClusterPermissions {
		for _, r := range p.Rules {
			if slices.Contains(r.Resources, "networks/status") && slices.Contains(r.Verbs, "update") {
				statusRule = true
			}
		}
	}
	if !statusRule {
		t.Error("clusterPermissions lack deploy/20-clusterrole.yaml's update of networks/status")
	}
	if len(csv.Spec.CustomResourceDefinitions.Owned) != 2 || csv.Spec.MinKubeVersion != minKubeVersion {
		t.Errorf("owned CRDs %v, minKubeVersion %q", csv.Spec.CustomResourceDefinitions.Owned, csv.Spec.MinKubeVersion)
	}
	for _, crd := range csv.Spec.CustomResourceDefinitions.Owned {
		if crd.Description == "" {
			t.Errorf("owned CRD %s has no description", crd.Name)
		}
	}
}

// The suites are not silent: a CSV without an icon and on a channel of no convention
// fails with their warnings.
func TestValidateFailsOnAWarning(t *testing.T) {
	out := filepath.Join(t.TempDir(), "bundle")
	if err := generate("../..", out); err != nil {
		t.Fatalf("generate: %v", err)
	}
	csv := readCSV(t, out)
	csv.Spec.Icon = nil
	if err := writeYAML(filepath.Join(out, "manifests", packageName+".clusterserviceversion.yaml"), csv); err != nil {
		t.Fatal(err)
	}
	var report strings.Builder
	err := validate(out, &report)
	if err == nil || !strings.Contains(report.String(), "csv.Spec.Icon not specified") {
		t.Errorf("validate = %v, report:\n%s\nwant a failure naming the missing icon", err, report.String())
	}
}

func readCSV(t *testing.T, dir string) *operatorsv1alpha1.ClusterServiceVersion {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "manifests", packageName+".clusterserviceversion.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	csv := &operatorsv1alpha1.ClusterServiceVersion{}
	if err := yaml.Unmarshal(raw, csv); err != nil {
		t.Fatal(err)
	}
	return csv
}
