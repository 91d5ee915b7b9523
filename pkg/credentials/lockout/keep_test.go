package lockout

import (
	"context"
	"errors"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// Counted token requests wait for the record to be read; a refusal then lands in the
// ConfigMap it is kept in.
func TestRefusalsAreKeptInTheConfigMap(t *testing.T) {
	ctx := context.Background()
	kube := fake.NewClientset()
	gate := NewGate(100, 100, nil, nil)
	restore := gate.KeepInConfigMap(ctx, kube, "network-controller", "refusals", "test-manager")
	who := neutronclient.TokenRequester{Account: "alice", Keystone: "https://keystone.example.com/v3", LockoutUser: "name:alice", Source: "a/s", Turn: "a"}

	var held *AccountHeldError
	if _, err := gate.Admit(ctx, who); !errors.As(err, &held) {
		t.Fatalf("Admit before the record was read: %v, want an *AccountHeldError", err)
	}
	restore(ctx)
	done, err := gate.Admit(ctx, who)
	if err != nil {
		t.Fatalf("Admit after the record was read: %v", err)
	}
	cm, err := kube.CoreV1().ConfigMaps("network-controller").Get(ctx, "refusals", metav1.GetOptions{})
	if err != nil || len(cm.Data) != 1 {
		t.Fatalf("the request was sent before it was recorded: %v, %v", cm, err)
	}
	done(neutronclient.TokenOK)
	deadline := time.Now().Add(5 * time.Second)
	for {
		cm, err = kube.CoreV1().ConfigMaps("network-controller").Get(ctx, "refusals", metav1.GetOptions{})
		if err == nil && len(cm.Data) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a token of a user never refused left %v (%v) in the ConfigMap", cm.Data, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
