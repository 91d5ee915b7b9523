package registry

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/samplecrd/network-controller/pkg/neutron"
	"github.com/samplecrd/network-controller/pkg/neutronstore"
)

// project is the store of one Place (an OpenStack project as one Keystone, region and
// Neutron serve it), filled on first use.
type project struct {
	store  *neutronstore.Store
	mu     sync.Mutex
	filled atomic.Bool
}

func newProject(driver neutron.Driver, clusterID, projectID string) *project {
	return &project{store: neutronstore.New(driver, clusterID, projectID)}
}

// fill fills the store through via once; callers that arrive while it runs wait for it
// rather than list again.
func (p *project) fill(ctx context.Context, via *neutronstore.Store) error {
	if p.filled.Load() {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.filled.Load() {
		return nil
	}
	if err := via.Fill(ctx); err != nil {
		return err
	}
	p.filled.Store(true)
	return nil
}

func (p *project) isFilled() bool { return p.filled.Load() }

// unfill makes the next use fill the store again; uses under way keep what it holds.
func (p *project) unfill() { p.filled.Store(false) }
