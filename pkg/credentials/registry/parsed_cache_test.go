package registry

import (
	"fmt"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// A Secret is parsed once per version, however many Networks and cloud names use it, and
// a Network naming a cloud the file lacks costs no read of its own.
func TestASecretIsParsedOncePerVersion(t *testing.T) {
	f := newRegistryFixture(t, nil)
	f.keystone.passwords["alice"] = "pw"
	f.secrets.put("team-a", "os", "1", cloudsYAMLFor("alice", "pw"))
	for i := range 50 {
		r := &samplecrdv1.CloudCredentialsRef{SecretName: "os", CloudName: fmt.Sprintf("missing-%d", i)}
		_, err := f.registry.Resolve(f.ctx, key("team-a", fmt.Sprintf("n%d", i)), OwnSecret("team-a", r))
		wantReason(t, err, samplecrdv1.ReasonCloudNotFound)
	}
	if _, err := f.resolve("team-a", "real", "os"); err != nil {
		t.Fatal(err)
	}
	if f.secrets.reads != 1 {
		t.Errorf("%d reads of the Secret, want 1", f.secrets.reads)
	}
	if n, _ := f.registry.parsed.len(); n != 1 {
		t.Errorf("%d parsed Secrets kept, want 1", n)
	}
	f.secrets.put("team-a", "os", "2", cloudsYAMLFor("alice", "pw"))
	if _, err := f.resolve("team-a", "real", "os"); err != nil {
		t.Fatal(err)
	}
	if f.secrets.reads != 2 {
		t.Errorf("%d reads after a new version, want 2", f.secrets.reads)
	}
	f.registry.ForgetSecret("team-a", "os")
	if n, _ := f.registry.parsed.len(); n != 0 {
		t.Errorf("%d parsed Secrets kept after the Secret went, want 0", n)
	}
}

// The parsed Secrets kept are bounded in number and bytes, the least recently used going
// first.
func TestParsedCacheIsBounded(t *testing.T) {
	c := newParsedCache()
	for i := range maxParsedSecrets + 10 {
		c.put(key("ns", fmt.Sprintf("s%d", i)), &parsedSecret{size: 100})
	}
	if n, _ := c.len(); n != maxParsedSecrets {
		t.Errorf("%d kept, want %d", n, maxParsedSecrets)
	}
	if _, ok := c.get(key("ns", "s0")); ok {
		t.Error("the least recently used was kept")
	}
	big := newParsedCache()
	for i := range 10 {
		big.put(key("ns", fmt.Sprintf("b%d", i)), &parsedSecret{size: maxParsedBytes / 4})
	}
	if n, bytes := big.len(); bytes > maxParsedBytes || n != 4 {
		t.Errorf("%d kept, %d bytes; want 4 within %d", n, bytes, maxParsedBytes)
	}
}
