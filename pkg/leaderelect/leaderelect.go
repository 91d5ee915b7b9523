// Package leaderelect runs a piece of work only while this process holds a Lease.
package leaderelect

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/klog/v2"
)

// Config says which Lease to hold and how.
type Config struct {
	Namespace, Name string
	LeaseDuration   time.Duration
	RenewDeadline   time.Duration
	RetryPeriod     time.Duration
	// Watchdog makes the liveness probe fail when the leader stops renewing.
	Watchdog *leaderelection.HealthzAdaptor
	// SetLeading is told when this process starts and stops leading.
	SetLeading func(bool)
	// FieldManager names the release's write.
	FieldManager string
}

// Run runs work only while this process holds the Lease. On shutdown (ctx ends) it first
// lets work drain and only then releases the Lease, so the standby takes over at once but
// never while this replica still has a Neutron call in flight. A Lease lost without a
// shutdown exits the process: another replica may be reconciling already.
func Run(ctx context.Context, cfg Config, kubeClient kubernetes.Interface, work func(context.Context) error) error {
	logger := klog.FromContext(ctx)
	identity, err := os.Hostname()
	if err != nil {
		return fmt.Errorf("reading hostname for the leader election identity: %w", err)
	}
	// Two processes on one host (tests, or two runs by hand) must not share an identity.
	identity = fmt.Sprintf("%s_%d", identity, os.Getpid())
	lease := cfg.Namespace + "/" + cfg.Name

	lock, err := resourcelock.New(resourcelock.LeasesResourceLock, cfg.Namespace, cfg.Name,
		kubeClient.CoreV1(), kubeClient.CoordinationV1(), resourcelock.ResourceLockConfig{Identity: identity})
	if err != nil {
		return fmt.Errorf("creating the leader election lock: %w", err)
	}

	electionCtx, stopElection := context.WithCancel(context.WithoutCancel(ctx))
	defer stopElection()
	var leading atomic.Bool
	workDone := make(chan struct{})
	context.AfterFunc(ctx, func() {
		if leading.Load() {
			<-workDone
		}
		stopElection()
	})

	var workErr error
	le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock:          lock,
		LeaseDuration: cfg.LeaseDuration,
		RenewDeadline: cfg.RenewDeadline,
		RetryPeriod:   cfg.RetryPeriod,
		// Released below, by this package: client-go's release reads the Lease again and
		// then writes it whenever its own last view still names this process, so a
		// deposed leader's release overwrites the new leader's Lease.
		ReleaseOnCancel: false,
		Name:            cfg.Name,
		WatchDog:        cfg.Watchdog,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(leaderCtx context.Context) {
				leading.Store(true)
				cfg.SetLeading(true)
				defer close(workDone)
				logger.Info("Became leader; starting workers", "identity", identity, "lease", lease)
				// Stop on shutdown or on lost leadership, whichever comes first.
				workCtx, cancel := context.WithCancel(leaderCtx)
				defer cancel()
				defer context.AfterFunc(ctx, cancel)()
				workErr = work(workCtx)
			},
			OnStoppedLeading: func() {
				cfg.SetLeading(false)
				if ctx.Err() == nil {
					logger.Error(nil, "Lost leadership; exiting", "identity", identity)
					klog.FlushAndExit(klog.ExitFlushTimeout, 1)
				}
			},
			OnNewLeader: func(current string) {
				if current != identity {
					logger.Info("Another replica leads; standing by", "leader", current)
				}
			},
		},
	})
	if err != nil {
		return fmt.Errorf("configuring leader election: %w", err)
	}
	logger.Info("Waiting to become leader", "identity", identity, "lease", lease)
	le.Run(electionCtx)
	if leading.Load() {
		release(context.WithoutCancel(ctx), kubeClient, cfg, identity)
	}
	return workErr
}

// Identity names this process in the Leases it holds: its host (a pod's name) and PID,
// so that a restarted container is another holder.
func Identity() (string, error) {
	host, err := os.Hostname()
	if err != nil {
		return "", fmt.Errorf("reading hostname for the Lease holder identity: %w", err)
	}
	return fmt.Sprintf("%s_%d", host, os.Getpid()), nil
}

// release gives the Lease up once the work stopped, if this process still holds it: an
// update at the version just read, so that a Lease another replica took meanwhile stays
// its.
func release(ctx context.Context, kubeClient kubernetes.Interface, cfg Config, identity string) {
	logger := klog.FromContext(ctx)
	ctx, cancel := context.WithTimeout(ctx, cfg.RenewDeadline)
	defer cancel()
	leases := kubeClient.CoordinationV1().Leases(cfg.Namespace)
	lease, err := leases.Get(ctx, cfg.Name, metav1.GetOptions{})
	if err != nil {
		logger.Error(err, "Could not read the Lease to release it; it lapses instead", "lease", cfg.Namespace+"/"+cfg.Name)
		return
	}
	if lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity != identity {
		logger.Info("The Lease is no longer this process's; leaving it", "lease", cfg.Namespace+"/"+cfg.Name)
		return
	}
	now := metav1.NewMicroTime(time.Now())
	holder, duration := "", int32(1)
	lease.Spec.HolderIdentity, lease.Spec.LeaseDurationSeconds = &holder, &duration
	lease.Spec.AcquireTime, lease.Spec.RenewTime = &now, &now
	if _, err := leases.Update(ctx, lease, metav1.UpdateOptions{FieldManager: cfg.FieldManager}); err != nil {
		logger.Error(err, "Could not release the Lease; it lapses instead", "lease", cfg.Namespace+"/"+cfg.Name)
		return
	}
	logger.Info("Released leadership", "identity", identity)
}
