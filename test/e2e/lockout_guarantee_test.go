//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	samplecrdv1 "github.com/samplecrd/network-controller/pkg/apis/samplecrd/v1"
	"github.com/samplecrd/network-controller/pkg/credentials/lockout"
)

func byUserID(userID string) func(map[string]any) {
	return func(c map[string]any) {
		auth := c["auth"].(map[string]any)
		delete(auth, "username")
		delete(auth, "user_domain_name")
		delete(auth, "user_domain_id")
		auth["user_id"] = userID
	}
}

func waitReason(t *testing.T, ns, name, reason string) *samplecrdv1.Network {
	t.Helper()
	return WaitNetwork(t, ns, name, 90*time.Second, reason, func(n *samplecrdv1.Network) error {
		if c := n.ReadyCondition(); c == nil || c.Reason != reason {
			return fmt.Errorf("Ready is %s", DescribeReady(n))
		}
		return nil
	})
}

// A Secret naming a user that does not exist is refused by Keystone, and its next version
// held; valid Secrets of other namespaces, by a user's ID, by a user's name and with an
// application credential, are Ready beside it, and again after the controller is killed
// and started anew (which reads only the shared record).
func TestAMadeUpNameHoldsNoOneBack(t *testing.T) {
	t.Parallel()
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, MemberCloud, TenantA, TenantB))
	hostile, byID, byName, appCred := NewNamespace(t), NewNamespace(t), NewNamespace(t), NewNamespace(t)
	opts := ControllerOptions{ClusterID: NewClusterID(t), Namespaces: []string{hostile, byID, byName, appCred},
		Args: ks.ControllerArgs(MemberCloud), Env: ks.ControllerEnv()}
	_, logStart := ks.ControllerTokenAnswers(t, 0, "401")
	ctrl := StartController(t, opts)

	nobody := "zz-nobody-" + RandomSuffix(6)
	guess := func() map[string]string {
		return map[string]string{"clouds.yaml": editCloud(t, ks.CloudsYAMLOf(t, TenantA), TenantA, func(c map[string]any) {
			auth := c["auth"].(map[string]any)
			auth["username"], auth["password"] = nobody, "guess-"+RandomSuffix(12)
		})}
	}
	PutCredentialsSecret(t, hostile, "made-up", guess())
	CreateTenantNetwork(t, hostile, "made-up", "10.198.0.0/24", "made-up", TenantA)
	waitReason(t, hostile, "made-up", samplecrdv1.ReasonPasswordRejected)
	PutCredentialsSecret(t, hostile, "made-up", guess())
	held := waitReason(t, hostile, "made-up", samplecrdv1.ReasonKeystoneAccountHeld)
	t.Logf("made-up user %s refused, its next version: %s", nobody, held.ReadyCondition().Message)

	valid := map[string]struct{ ns, cloud, yaml string }{
		"by-id":   {byID, TenantA, editCloud(t, ks.CloudsYAMLOf(t, TenantA), TenantA, byUserID(ks.UserID(t, TenantA)))},
		"by-name": {byName, MemberCloud, ks.CloudsYAMLOf(t, MemberCloud)},
		"appcred": {appCred, TenantB, ks.CloudsYAMLOf(t, TenantB)},
	}
	round := func(when string, octet int) {
		for name, v := range valid {
			PutCredentialsSecret(t, v.ns, name, map[string]string{"clouds.yaml": v.yaml})
			CreateTenantNetwork(t, v.ns, name+"-"+when, fmt.Sprintf("10.198.%d.0/24", octet), name, v.cloud)
			octet++
		}
		for name, v := range valid {
			n := WaitReady(t, v.ns, name+"-"+when, 90*time.Second)
			t.Logf("%s, %s: Ready in project %s", when, name, n.Status.ProjectID)
		}
	}
	round("beside", 10)

	ctrl.Kill()
	ctrl = StartController(t, opts)
	PutCredentialsSecret(t, hostile, "made-up", guess())
	waitReason(t, hostile, "made-up", samplecrdv1.ReasonKeystoneAccountHeld)
	round("restarted", 20)

	refused, _ := ks.ControllerTokenAnswers(t, logStart, "401")
	t.Logf("Keystone refused %d token requests of the controller in all; the record holds %d entries", len(refused), len(RefusalsOf(t, opts.ClusterID)))
	if len(refused) != 1 {
		t.Errorf("Keystone refused %d token requests, want 1: the made-up name's first", len(refused))
	}
}

// Three controllers (one namespace each, -namespace) share the record; each has Secrets
// guessing one user's password by its ID, its ID in capitals and its name, all made at
// once and rewritten at once twice, so that the controllers' reads and writes of the
// record race. Keystone refuses the user at most twice, and the user still logs in.
func TestRacedReplicasNeverSendAThirdRefusal(t *testing.T) {
	t.Parallel()
	ks, _ := OwnKeystone(t, LocalKeystone(t).WithOwnUsers(t, MemberCloud, TenantA))
	victim, userID := ks.CloudsYAMLOf(t, TenantA), ks.UserID(t, TenantA)
	clusterID := NewClusterID(t)
	record := "e2e-refusals-raced-" + RandomSuffix(8)
	t.Cleanup(func() { deleteConfigMap(t, metav1.NamespaceSystem, record) })
	_, logStart := ks.ControllerTokenAnswers(t, 0, "401")
	var namespaces []string
	for range 3 {
		ns := NewNamespace(t)
		namespaces = append(namespaces, ns)
		StartController(t, ControllerOptions{ClusterID: clusterID, Namespaces: []string{ns},
			Args: append(ks.ControllerArgs(MemberCloud), "-keystone-refusals-configmap="+record), Env: ks.ControllerEnv()})
	}
	spellings := map[string]func(map[string]any){
		"id":       byUserID(userID),
		"id-upper": byUserID(strings.ToUpper(userID)),
		"name":     func(map[string]any) {},
	}
	guesses := func() {
		var wg sync.WaitGroup
		for _, ns := range namespaces {
			for spelling, edit := range spellings {
				wg.Add(1)
				go func() {
					defer wg.Done()
					yaml := editCloud(t, victim, TenantA, func(c map[string]any) {
						edit(c)
						c["auth"].(map[string]any)["password"] = "guess-" + RandomSuffix(12)
					})
					PutCredentialsSecret(t, ns, spelling, map[string]string{"clouds.yaml": yaml})
				}()
			}
		}
		wg.Wait()
	}
	guesses()
	octet := 0
	for _, ns := range namespaces {
		for spelling := range spellings {
			CreateTenantNetwork(t, ns, spelling, fmt.Sprintf("10.199.%d.0/24", octet), spelling, TenantA)
			octet++
		}
	}
	settled := func() {
		for _, ns := range namespaces {
			for spelling := range spellings {
				WaitNetwork(t, ns, spelling, 90*time.Second, "PasswordRejected or KeystoneAccountHeld", func(n *samplecrdv1.Network) error {
					if c := n.ReadyCondition(); c == nil || (c.Reason != samplecrdv1.ReasonPasswordRejected && c.Reason != samplecrdv1.ReasonKeystoneAccountHeld) {
						return fmt.Errorf("Ready is %s", DescribeReady(n))
					}
					return nil
				})
			}
		}
	}
	settled()
	for range 2 {
		guesses()
		time.Sleep(5 * time.Second) // let every controller decide on the new versions
		settled()
	}
	refused, _ := ks.ControllerTokenAnswers(t, logStart, "401")
	t.Logf("%d Secrets in 3 versions naming one user 3 ways, at 3 controllers: Keystone refused %d token requests; the record holds %d entries",
		len(namespaces)*len(spellings), len(refused), len(configMapData(t, metav1.NamespaceSystem, record)))
	if len(refused) > lockout.MaxRefusalsInARow {
		t.Errorf("Keystone refused %d token requests for one user, want at most %d", len(refused), lockout.MaxRefusalsInARow)
	}
	if !logsIn(t, ks, authOptionsOf(t, ks, TenantA).Username) {
		t.Error("the user no longer logs in with its password: locked out")
	}
}

// The record at its bound: filled with the largest entries the controller writes, the
// ConfigMap stays far below 1 MiB; a Secret naming a user without an entry waits, saying
// so, and goes once the operator removes one entry, without a restart.
func TestTheRecordAtItsBound(t *testing.T) {
	t.Parallel()
	ks := LocalKeystone(t).WithOwnUsers(t, MemberCloud, TenantA)
	ns := NewNamespace(t)
	opts := ControllerOptions{ClusterID: NewClusterID(t), Namespaces: []string{ns}, Args: ks.ControllerArgs(MemberCloud), Env: ks.ControllerEnv()}
	name := "e2e-refusals-" + opts.ClusterID // StartController's record
	entry := map[string]any{"r": 1, "n": true, "t": strings.Repeat("a", 16), "d": strings.Repeat("b", 16), "l": strings.Repeat("c", 32),
		"p": []string{strings.Repeat("d", 16), strings.Repeat("e", 16), strings.Repeat("f", 16), strings.Repeat("1", 16)}}
	value, _ := json.Marshal(entry)
	data := map[string]string{}
	for i := range lockout.MaxRecordEntries {
		data[fmt.Sprintf("%032x", i+1)] = string(value)
	}
	kube, _ := Clients(t)
	if _, err := kube.CoreV1().ConfigMaps(metav1.NamespaceSystem).Create(Ctx(t, 30*time.Second),
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: data}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	raw, err := kube.CoreV1().RESTClient().Get().AbsPath("/api/v1/namespaces", metav1.NamespaceSystem, "configmaps", name).DoRaw(Ctx(t, 30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the record at its bound: %d entries, %d bytes as the apiserver serves it", len(data), len(raw))
	if len(raw) > 320<<10 {
		t.Errorf("the record at its bound is %d bytes, want under 320 KiB", len(raw))
	}
	StartController(t, opts)
	PutCredentialsSecret(t, ns, "openstack", map[string]string{"clouds.yaml": ks.CloudsYAMLOf(t, TenantA)})
	CreateTenantNetwork(t, ns, "late", "10.200.0.0/24", "openstack", TenantA)
	n := waitReason(t, ns, "late", samplecrdv1.ReasonKeystoneAccountHeld)
	t.Logf("a new user at the bound: %s", n.ReadyCondition().Message)
	if !strings.Contains(n.ReadyCondition().Message, "its bound for the cluster") {
		t.Errorf("the message does not name the bound: %s", n.ReadyCondition().Message)
	}
	patch := fmt.Sprintf(`[{"op":"remove","path":"/data/%032x"}]`, 1)
	if _, err := kube.CoreV1().ConfigMaps(metav1.NamespaceSystem).Patch(Ctx(t, 30*time.Second), name, types.JSONPatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	WaitReady(t, ns, "late", 2*time.Minute)
	t.Log("one entry removed by the operator: the Network is Ready without a restart")
}
