package registry

import (
	"bytes"
	"encoding/pem"
	"strings"
	"testing"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

func TestUnverifiedTLSIsRefusedUnlessTheOperatorAllowsIt(t *testing.T) {
	data := map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth, "    verify: false\n")}
	_, err := ParseCloud(testSecret, data, "team-a", policyForTest(t))
	if e := wantReason(t, err, samplecrdv1.ReasonTLSVerificationRefused); e != nil && !strings.Contains(e.Message, "-allow-unverified-tls") {
		t.Errorf("message %q should name the flag that allows it", e.Message)
	}

	allowing := policyForTest(t)
	allowing.AllowUnverifiedTLS = true
	c, err := ParseCloud(testSecret, data, "team-a", allowing)
	if err != nil {
		t.Fatalf("ParseCloud with -allow-unverified-tls: %v", err)
	}
	if c.TLS == nil || !c.TLS.InsecureSkipVerify || c.Trust != trustUnverified {
		t.Fatalf("TLS config %+v and trust %q, want verification off and trust %q", c.TLS, c.Trust, trustUnverified)
	}

	verified := map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth, "    verify: true\n")}
	if c, err := ParseCloud(testSecret, verified, "team-a", policyForTest(t)); err != nil || c.TLS != nil || c.Trust != "" {
		t.Errorf("verify: true gave TLS %+v, trust %q, error %v; want the system's roots", c.TLS, c.Trust, err)
	}
}

func TestCACertIsBounded(t *testing.T) {
	one := selfSignedPEM(t)
	certs := func(n int) []byte { return bytes.Repeat(one, n) }
	notACert := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("whatever")})
	garbled := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("not DER")})
	cases := []struct {
		name string
		pem  []byte
		says string // "" when accepted
	}{
		{"one certificate", one, ""},
		{"as many certificates as allowed", certs(MaxCACerts), ""},
		{"one certificate too many", certs(MaxCACerts + 1), "more than the 16 certificates"},
		{"too many bytes", append(bytes.Repeat([]byte("# padding\n"), MaxCACertBytes/10), one...), "more than the 32768 this controller reads"},
		{"a key beside the certificate", append(append([]byte{}, one...), notACert...), "PEM block 2 of key cacert"},
		{"a certificate that does not parse beside one that does", append(append([]byte{}, one...), garbled...), "is not a certificate that parses"},
		{"no PEM at all", []byte("hello"), "holds no PEM certificate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseCloud(testSecret, map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth), KeyCACert: tc.pem}, "team-a", policyForTest(t))
			if tc.says == "" {
				if err != nil || c.TLS == nil || c.TLS.RootCAs == nil || c.TLS.InsecureSkipVerify {
					t.Fatalf("ParseCloud: TLS %+v, error %v; want the Secret's CA, verified", c.TLS, err)
				}
				return
			}
			if e := wantReason(t, err, samplecrdv1.ReasonCACertInvalid); e != nil && !strings.Contains(e.Message, tc.says) {
				t.Errorf("message %q should say %q", e.Message, tc.says)
			}
		})
	}
}

// The trust a cloud names is the same for the same roots and differs for other roots, so
// that only clients trusting exactly the same roots share a Place.
func TestTrustNamesTheRootsAndNothingElse(t *testing.T) {
	trustOf := func(ca []byte, extra ...string) string {
		data := map[string][]byte{KeyCloudsYAML: cloudsYAML(passwordAuth, extra...)}
		if ca != nil {
			data[KeyCACert] = ca
		}
		allowing := policyForTest(t)
		allowing.AllowUnverifiedTLS = true
		c, err := ParseCloud(testSecret, data, "team-a", allowing)
		if err != nil {
			t.Fatal(err)
		}
		return c.Trust
	}
	a, b := selfSignedPEM(t), selfSignedPEM(t)
	if got := trustOf(nil); got != "" {
		t.Errorf("trust of the system's roots %q, want \"\"", got)
	}
	if trustOf(a) != trustOf(append([]byte("\n# comment\n"), a...)) {
		t.Error("the same CA, written otherwise, names another trust")
	}
	if ta, tb := trustOf(a), trustOf(b); ta == tb || !strings.HasPrefix(ta, trustCAPrefix) {
		t.Errorf("trusts %q and %q of two CAs, want two distinct %s names", ta, tb, trustCAPrefix)
	}
	if got := trustOf(a, "    verify: false\n"); got != trustUnverified {
		t.Errorf("trust of a CA with verify: false %q, want %q", got, trustUnverified)
	}
}
