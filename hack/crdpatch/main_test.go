package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// in is the shape of controller-gen's output, cut down to the nodes crdpatch touches.
const in = `# header
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        properties:
          apiVersion:
            type: string
          kind:
            type: string
          status:
            properties:
              conditions:
                items:
                  properties:
                    lastTransitionTime:
                      format: date-time
                      type: string
                    status:
                      type: string
                  type: object
                type: array
            type: object
        type: object
`

func patch(t *testing.T, input string) (string, error) {
	t.Helper()
	return patchWithRules(t, input, "")
}

// patchWithRules is patch with a rules file holding rules ("": none).
func patchWithRules(t *testing.T, input, rules string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	src, dst, rulesFile := filepath.Join(dir, "in.yaml"), filepath.Join(dir, "out.yaml"), ""
	if err := os.WriteFile(src, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	if rules != "" {
		rulesFile = filepath.Join(dir, "rules.yaml")
		if err := os.WriteFile(rulesFile, []byte(rules), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := run(src, dst, rulesFile); err != nil {
		return "", err
	}
	out, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), nil
}

func TestAddsMaxLengthsAndKeepsTheHeader(t *testing.T) {
	out, err := patch(t, in)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		"          apiVersion:\n", "          apiVersion:\n            maxLength: 317\n",
		"          kind:\n", "          kind:\n            maxLength: 63\n",
		"                      format: date-time\n", "                      format: date-time\n                      maxLength: 64\n",
		"                    status:\n", "                    status:\n                      maxLength: 7\n",
	).Replace(in)
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

func TestRefusesToOverrideAMaxLength(t *testing.T) {
	// A newer generator that sets one itself makes the entry here obsolete.
	input := strings.Replace(in, "          kind:\n", "          kind:\n            maxLength: 100\n", 1)
	if _, err := patch(t, input); err == nil || !strings.Contains(err.Error(), "has a maxLength already") {
		t.Errorf("error %v, want one saying kind has a maxLength already", err)
	}
}

func TestRefusesAMissingNode(t *testing.T) {
	input := strings.Replace(in, "          kind:\n            type: string\n", "", 1)
	if _, err := patch(t, input); err == nil || !strings.Contains(err.Error(), "kind") {
		t.Errorf("error %v, want one naming kind", err)
	}
}
