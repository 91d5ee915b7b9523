package main

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/klog/v2"
)

// runWithLeaderElection runs work only while this process holds the Lease. On shutdown it
// first lets work drain and only then releases the Lease, so the standby takes over at
// once but never while this replica still has a Neutron call in flight.
func runWithLeaderElection(ctx context.Context, opts options, kubeClient kubernetes.Interface, probes *probes, work func(context.Context) error) error {
	logger := klog.FromContext(ctx)
	identity, err := os.Hostname()
	if err != nil {
		return fmt.Errorf("reading hostname for the leader election identity: %w", err)
	}
	// Two processes on one host (tests, or two runs by hand) must not share an identity.
	identity = fmt.Sprintf("%s_%d", identity, os.Getpid())

	lock, err := resourcelock.New(resourcelock.LeasesResourceLock, opts.leaseNamespace, opts.leaseName,
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
		Lock:            lock,
		LeaseDuration:   opts.leaseDuration,
		RenewDeadline:   opts.leaseRenewDeadline,
		RetryPeriod:     opts.leaseRetryPeriod,
		ReleaseOnCancel: true,
		Name:            opts.leaseName,
		WatchDog:        probes.leaderWatchdog,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(leaderCtx context.Context) {
				leading.Store(true)
				probes.setLeading(true)
				defer close(workDone)
				logger.Info("Became leader; starting workers", "identity", identity, "lease", opts.leaseNamespace+"/"+opts.leaseName)
				// Stop on shutdown or on lost leadership, whichever comes first.
				workCtx, cancel := context.WithCancel(leaderCtx)
				defer cancel()
				defer context.AfterFunc(ctx, cancel)()
				workErr = work(workCtx)
			},
			OnStoppedLeading: func() {
				probes.setLeading(false)
				if ctx.Err() == nil {
					// Lost the Lease without being asked to stop: another replica may be
					// reconciling already, so stop at once rather than race it.
					logger.Error(nil, "Lost leadership; exiting", "identity", identity)
					klog.FlushAndExit(klog.ExitFlushTimeout, 1)
				}
				logger.Info("Released leadership", "identity", identity)
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
	logger.Info("Waiting to become leader", "identity", identity, "lease", opts.leaseNamespace+"/"+opts.leaseName)
	le.Run(electionCtx)
	return workErr
}

// leaseCheckGrace is how long past a missed renewal /healthz still passes.
const leaseCheckGrace = 20 * time.Second
