package fake

import "github.com/samplecrd/network-controller/pkg/neutron"

// SetCredentialExpiry makes CredentialExpiry say that the credentials expire as e says;
// nil: they do not.
func (d *Driver) SetCredentialExpiry(e *neutron.CredentialExpiry) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.expiry = e
}

var _ neutron.Expiring = (*Driver)(nil)

// CredentialExpiry returns what SetCredentialExpiry set.
func (d *Driver) CredentialExpiry() (neutron.CredentialExpiry, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.expiry == nil {
		return neutron.CredentialExpiry{}, false
	}
	return *d.expiry, true
}
