package main

import (
	"os"
	"regexp"
	"testing"
)

func TestScaleStageRunsTheDeploymentsGOGC(t *testing.T) {
	yaml, err := os.ReadFile("../../deploy/base/40-deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`- name: GOGC\s+value: "([0-9]+)"`).FindSubmatch(yaml)
	if m == nil {
		t.Fatal("the Deployment sets no GOGC")
	}
	if string(m[1]) != deploymentGOGC {
		t.Errorf("the Deployment sets GOGC=%s, the scale stage runs %s", m[1], deploymentGOGC)
	}
}

func TestScaleStageKeepsTheBenchsGCSettings(t *testing.T) {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	if got := scaleGCEnv(); len(got) != 1 || got[0] != "GOGC="+deploymentGOGC {
		t.Errorf("without GOGC or GOMEMLIMIT: %q, want GOGC=%s", got, deploymentGOGC)
	}
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(v, func(t *testing.T) {
			t.Setenv(v, "100")
			if got := scaleGCEnv(); len(got) != 0 {
				t.Errorf("with %s set: %q, want nothing added", v, got)
			}
		})
	}
}
