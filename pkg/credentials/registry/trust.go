package registry

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// Whoever answers TLS for a tenant's Keystone and Neutron is believed about the token's
// project and what Neutron lists. A Secret may choose that (its own CA, or no
// verification where the operator allows it), so the choice is bounded, and it is part of
// the client's Place: only clients that trust exactly the same roots share a store and a
// budget.
const (
	// MaxCACertBytes bounds a Secret's cacert key.
	MaxCACertBytes = 32 << 10
	// MaxCACerts bounds the certificates in it.
	MaxCACerts = 16
)

// Trust values of neutronclient.Credentials.Trust: "" is the system's roots.
const (
	trustUnverified = "unverified"
	trustCAPrefix   = "ca-sha256:"
)

// caRoots is a Secret's cacert, read and bounded.
type caRoots struct {
	pool *x509.CertPool
	// size estimates the memory pool keeps, in bytes.
	size int
	// trust names these roots and no others.
	trust string
}

// parseCACert reads a Secret's cacert: PEM certificates only, at most MaxCACerts of them
// in at most MaxCACertBytes. Every block must be a certificate that parses; a pool that
// silently dropped some would trust other roots than the Secret shows.
func parseCACert(secret string, data []byte) (*caRoots, error) {
	if len(data) > MaxCACertBytes {
		return nil, errorf(samplecrdv1.ReasonCACertInvalid, "key %s of Secret %s holds %d bytes, more than the %d this controller reads; keep only the CA that signs the cloud's certificates",
			KeyCACert, secret, len(data), MaxCACertBytes)
	}
	roots := &caRoots{pool: x509.NewCertPool()}
	sum := sha256.New()
	count := 0
	for rest := data; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		count++
		if count > MaxCACerts {
			return nil, errorf(samplecrdv1.ReasonCACertInvalid, "key %s of Secret %s holds more than the %d certificates this controller reads", KeyCACert, secret, MaxCACerts)
		}
		if block.Type != "CERTIFICATE" {
			return nil, errorf(samplecrdv1.ReasonCACertInvalid, "PEM block %d of key %s of Secret %s is not a CERTIFICATE", count, KeyCACert, secret)
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, &Error{Reason: samplecrdv1.ReasonCACertInvalid, Err: err,
				Message: fmt.Sprintf("PEM block %d of key %s of Secret %s is not a certificate that parses", count, KeyCACert, secret)}
		}
		roots.pool.AddCert(cert)
		sum.Write(block.Bytes)
		roots.size += 2 * len(block.Bytes) // the DER and the parsed certificate
	}
	if count == 0 {
		return nil, errorf(samplecrdv1.ReasonCACertInvalid, "key %s of Secret %s holds no PEM certificate", KeyCACert, secret)
	}
	roots.trust = trustCAPrefix + hex.EncodeToString(sum.Sum(nil)[:12])
	return roots, nil
}

// refuseUnverified refuses a cloud that turns TLS verification off, unless the operator
// allows it.
func refuseUnverified(where string, e *cloudEntry, policy Policy) error {
	if e.verify == nil || *e.verify || policy.AllowUnverifiedTLS {
		return nil
	}
	return errorf(samplecrdv1.ReasonTLSVerificationRefused,
		"%s sets verify: false, which would let anyone on the way to its Keystone and Neutron answer for them; this controller does not allow it (-allow-unverified-tls); put the cloud's CA, as PEM, into the Secret's key %s instead",
		where, KeyCACert)
}

// tlsOf returns a cloud's TLS settings and the trust they name: the Secret's CA if it
// has one, and verification unless the cloud turns it off (refuseUnverified allowed
// it); nil and "" for the system's defaults.
func tlsOf(roots *caRoots, verify *bool) (*tls.Config, string) {
	if verify != nil && !*verify {
		return &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: true}, trustUnverified //nolint:gosec // allowed by the operator's -allow-unverified-tls
	}
	if roots == nil {
		return nil, ""
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: roots.pool}, roots.trust
}
