package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
)

// tenantsResult describes Networks spread evenly over projects on the
// Keystone-authenticated Neutron: the controller's own, and tenants' whose Networks use
// the credentials Secret of the tenant's member user.
type tenantsResult struct {
	n, projects int
	create      phase
	// Tokens Keystone issued to the controller while it created the Networks and after
	// its restart.
	createTokens, restartTokens int
	restart                     restartCount
}

// tenantsStage creates -tenants-n Networks across -tenants projects (the controller's
// own and -tenants - 1 tenants'), restarts the controller over them, and counts Neutron
// calls and Keystone tokens.
func runTenants(ctx context.Context, b *bench) (*tenantsResult, error) {
	res := &tenantsResult{n: b.o.tenantsN, projects: b.o.tenants}
	logf("tenants: making %d projects with a member user each in Keystone", res.projects-1)
	tenants, err := ensureTenants(ctx, b.o.cloudsYAML, b.o.adminCloud, res.projects-1, b.o.workers)
	if err != nil {
		return nil, err
	}
	// secrets[0] is "": those Networks are in the controller's own project.
	secrets := make([]string, res.projects)
	for i, cloudsYAML := range tenants {
		secrets[i+1] = fmt.Sprintf("bench-tenant-%d", i)
		if err := putSecret(ctx, b, secrets[i+1], cloudsYAML); err != nil {
			return nil, err
		}
	}
	defer deleteSecrets(b, secrets[1:])

	// The same bench, measured on the Neutron behind Keystone with a controller that logs
	// in as its own cloud there.
	tb := *b
	tb.log = &requestLog{path: b.o.keystoneNeutronLog}
	tb.ctl.neutronEndpoint = ""
	tb.ctl.extraArgs = append([]string{"-os-cloud=" + b.o.osCloud}, b.ctl.extraArgs...)
	tb.ctl.env = []string{"OS_CLIENT_CONFIG_FILE=" + absPath(b.o.cloudsYAML)}
	tb.running = nil
	defer func() {
		if tb.running != nil {
			if err := tb.running.stop(30 * time.Second); err != nil {
				logf("tenants: %v", err)
			}
		}
	}()
	tokens := keystoneLog{path: b.o.keystoneAccessLog}

	clusterID := fmt.Sprintf("bench-%s-tenants", b.runID)
	_, before, err := tokens.controllerTokens(0)
	if err != nil {
		return nil, err
	}
	p, err := tb.startSettled(ctx, clusterID, "tenants-create")
	if err != nil {
		return nil, err
	}
	logf("tenants: controller (pid %d) creates %d Networks across %d projects", p.pid(), res.n, res.projects)
	m0, err := tb.markNow(p)
	if err != nil {
		return nil, err
	}
	names := networkNames("tenants-"+b.runID, res.n)
	if res.create, _, err = tb.driveNetworks(ctx, p, m0, names, createNetworksUsing(secrets), tb.tracker.waitReady); err != nil {
		return nil, err
	}
	logf("tenants: %d Networks Ready after %s", res.n, secs(res.create.dur))
	if err := tb.stopRunning(); err != nil {
		return nil, err
	}
	var mark int
	if res.createTokens, mark, err = tokens.controllerTokens(before); err != nil {
		return nil, err
	}
	if res.restart, err = tb.restartQuiet(ctx, clusterID, "tenants-restart"); err != nil {
		return nil, err
	}
	res.restartTokens, _, err = tokens.controllerTokens(mark)
	return res, err
}

// putSecret creates or replaces the credentials Secret name of the bench namespace.
func putSecret(ctx context.Context, b *bench, name, cloudsYAML string) error {
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: b.o.namespace,
			Labels: map[string]string{samplecrdv1.CredentialsLabel: "true"}},
		StringData: map[string]string{"clouds.yaml": cloudsYAML},
	}
	secrets := b.kube.CoreV1().Secrets(b.o.namespace)
	_, err := secrets.Create(ctx, secret, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		_, err = secrets.Update(ctx, secret, metav1.UpdateOptions{})
	}
	if err != nil {
		return fmt.Errorf("writing Secret %s/%s: %w", b.o.namespace, name, err)
	}
	return nil
}

// deleteSecrets deletes the named Secrets of the bench namespace, reporting failures. No
// controller runs by then, so the finalizer it put on them is removed first.
func deleteSecrets(b *bench, names []string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, name := range names {
		secret, err := b.kube.CoreV1().Secrets(b.o.namespace).Get(ctx, name, metav1.GetOptions{})
		if err == nil && slices.Contains(secret.Finalizers, samplecrdv1.CredentialsFinalizerName) {
			secret.Finalizers = slices.DeleteFunc(secret.Finalizers, func(f string) bool { return f == samplecrdv1.CredentialsFinalizerName })
			_, err = b.kube.CoreV1().Secrets(b.o.namespace).Update(ctx, secret, metav1.UpdateOptions{})
		}
		if err != nil && !apierrors.IsNotFound(err) {
			logf("removing the controller's finalizer from Secret %s/%s: %v", b.o.namespace, name, err)
		}
		err = b.kube.CoreV1().Secrets(b.o.namespace).Delete(ctx, name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			logf("deleting Secret %s/%s: %v", b.o.namespace, name, err)
		}
	}
}
