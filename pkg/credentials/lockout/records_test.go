package lockout

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// fakeRecord is a Record in memory: data is what a flush made durable. Records
// made by sharing share data and its version, as controllers sharing a ConfigMap do; a
// flush after another's write since this one's Latest fails with a conflict.
type fakeRecord struct {
	mu     sync.Mutex
	staged map[string]*string
	*store
	read    int
	fail    error
	lastErr error
}

type store struct {
	data    map[string]string
	version int
}

func newFakeRecord() *fakeRecord {
	return &fakeRecord{staged: map[string]*string{}, store: &store{data: map[string]string{}}}
}

// sharing returns another controller's record of r's ConfigMap.
func (r *fakeRecord) sharing() *fakeRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return &fakeRecord{staged: map[string]*string{}, store: r.store, read: r.version}
}

func (r *fakeRecord) Latest(context.Context) (map[string]string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	storeMu.Lock()
	defer storeMu.Unlock()
	r.read = r.version
	return maps.Clone(r.data), nil
}

// storeMu guards every store: the records sharing one stand for writers of one object.
var storeMu sync.Mutex

func (r *fakeRecord) Stage(key string, value *string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.staged[key] = value
}

func (r *fakeRecord) Flush(context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	staged := r.staged
	r.staged = map[string]*string{}
	if len(staged) == 0 {
		// A flush that found its changes taken by a write under way gets that write's
		// outcome, as the ConfigMap's does.
		err := r.lastErr
		r.lastErr = nil
		return err
	}
	if r.fail != nil {
		return r.fail // the batch is lost, as a failed patch is
	}
	storeMu.Lock()
	defer storeMu.Unlock()
	if r.read != r.version {
		r.lastErr = apierrors.NewConflict(corev1.Resource("configmaps"), "refusals", errors.New("changed"))
		return r.lastErr // lost too
	}
	r.lastErr = nil
	for key, value := range staged {
		if value == nil {
			delete(r.data, key)
		} else {
			r.data[key] = *value
		}
	}
	r.version++
	r.read = r.version
	return nil
}

// durable returns what a restarted controller would read, once writes under way ended.
func (r *fakeRecord) durable(t *testing.T) map[string]string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r.mu.Lock()
		pending := len(r.staged)
		storeMu.Lock()
		data := maps.Clone(r.data)
		storeMu.Unlock()
		r.mu.Unlock()
		if pending == 0 {
			return data
		}
		if time.Now().After(deadline) {
			t.Fatal("staged changes never flushed")
		}
		time.Sleep(time.Millisecond)
	}
}

// restarted returns a gate of a controller started anew on what record holds.
func restarted(t *testing.T, record *fakeRecord, errs func(error)) *Gate {
	t.Helper()
	entries := record.durable(t)
	g := NewGate(1000, 1000, nil, nil)
	g.KeepRecordIn(record, "the test's record", errs)
	if skipped := g.Restore(entries); skipped != 0 {
		t.Fatalf("Restore skipped %d of the controller's own entries", skipped)
	}
	return g
}

func noErrors(t *testing.T) func(error) {
	return func(err error) { t.Errorf("record: %v", err) }
}

// A restarted controller sends no refusal more than one that did not restart would.
func TestRefusalsOutliveARestart(t *testing.T) {
	record := newFakeRecord()
	g := restarted(t, record, noErrors(t))
	ask(t, g, requester("hostile", "guess-1", "name:victim"), neutronclient.TokenRejected)
	ask(t, g, requester("hostile", "guess-2", "name:victim"), neutronclient.TokenRejected)

	g = restarted(t, record, noErrors(t))
	if ask(t, g, requester("hostile", "guess-3", "name:victim"), neutronclient.TokenRejected) {
		t.Error("a third refusal in a row was sent after a restart")
	}
	if !ask(t, g, requester("calm", "openstack", "name:bystander"), neutronclient.TokenOK) {
		t.Error("another user was held")
	}
	for key, value := range record.durable(t) {
		if strings.Contains(key+value, "victim") || strings.Contains(key+value, "guess") {
			t.Errorf("the record names a user or a Secret: %s=%s", key, value)
		}
	}
}

// The refusal kept for credentials that worked stays kept after a restart, whichever
// request comes first.
func TestCredentialsThatWorkedKeepTheLastRefusalAfterARestart(t *testing.T) {
	record := newFakeRecord()
	g := restarted(t, record, noErrors(t))
	owner := requester("team-b", "openstack", "name:bob")
	ask(t, g, owner, neutronclient.TokenOK)
	ask(t, g, requester("hostile", "guess-1", "name:bob"), neutronclient.TokenRejected)

	g = restarted(t, record, noErrors(t))
	if ask(t, g, requester("hostile", "guess-2", "name:bob"), neutronclient.TokenRejected) {
		t.Fatal("after a restart, a second guess was sent while credentials of the user work")
	}
	if !ask(t, g, owner, neutronclient.TokenOK) {
		t.Fatal("the owner's renewal was held")
	}
}

// A request is recorded as refused before it is sent: a controller that crashed while it
// was under way counts it when it starts again.
func TestARequestIsRecordedBeforeItIsSent(t *testing.T) {
	record := newFakeRecord()
	for i := range MaxRefusalsInARow {
		g := restarted(t, record, noErrors(t))
		if _, err := g.Admit(context.Background(), requester("hostile", fmt.Sprintf("guess-%d", i), "name:victim")); err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		} // ... and the controller crashes before the answer.
	}
	g := restarted(t, record, noErrors(t))
	if ask(t, g, requester("hostile", "guess-last", "name:victim"), neutronclient.TokenRejected) {
		t.Error("a request was sent after two that may have been refused")
	}
}

// A token of a user never refused leaves nothing in the record; a user with a refusal
// stays in it until a token proves it again, as Keystone's count does.
func TestTheRecordForgetsAUserOnceProven(t *testing.T) {
	record := newFakeRecord()
	g := restarted(t, record, noErrors(t))
	ask(t, g, requester("a", "openstack", "name:alice"), neutronclient.TokenOK)
	if got := record.durable(t); len(got) != 0 {
		t.Errorf("record after a token of a user never refused: %v", got)
	}
	ask(t, g, requester("hostile", "guess", "name:alice"), neutronclient.TokenRejected)
	if got := record.durable(t); len(got) != 1 {
		t.Errorf("record after a refusal: %v, want one entry", got)
	}
	ask(t, g, requester("a", "openstack", "name:alice"), neutronclient.TokenOK)
	if got := record.durable(t); len(got) != 0 {
		t.Errorf("record after a refusal then a token: %v, want it forgotten", got)
	}
}

// Without the record read, or when a request cannot be recorded, no counted request goes
// out; other methods are not held.
func TestNoCountedRequestWithoutTheRecord(t *testing.T) {
	record := newFakeRecord()
	var mu sync.Mutex
	var logged []error
	g := NewGate(1000, 1000, nil, nil)
	g.KeepRecordIn(record, "the test's record", func(err error) { mu.Lock(); logged = append(logged, err); mu.Unlock() })
	if ask(t, g, requester("a", "openstack", "name:alice"), neutronclient.TokenOK) {
		t.Error("a request was sent before the record was read")
	}
	appCred := neutronclient.TokenRequester{Account: "app cred", Keystone: gateKeystone, Source: "a/app", Turn: "a"}
	if !ask(t, g, appCred, neutronclient.TokenOK) {
		t.Error("an application credential was held")
	}
	g.Restore(nil)
	record.mu.Lock()
	record.fail = errors.New("forbidden")
	record.mu.Unlock()
	if ask(t, g, requester("a", "openstack", "name:alice"), neutronclient.TokenOK) {
		t.Error("a request was sent that could not be recorded")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(logged) != 1 || !strings.Contains(logged[0].Error(), "forbidden") {
		t.Errorf("errors told: %v", logged)
	}
}

// Past MaxRecordedUsers, a namespace holding its share of the record is held and one
// below it is not: no namespace, nor a few, fill the record for another.
func TestNoNamespaceFillsTheRecordForAnother(t *testing.T) {
	record := newFakeRecord()
	g := restarted(t, record, noErrors(t))
	for i := range MaxRecordedUsers {
		who := requester(fmt.Sprintf("ns-%d", i/MaxRefusedUsersPerNamespace), "s", fmt.Sprintf("name:made-up-%d", i))
		if !ask(t, g, who, neutronclient.TokenRejected) {
			t.Fatalf("made-up user %d held", i)
		}
	}
	namespaces := (MaxRecordedUsers + MaxRefusedUsersPerNamespace - 1) / MaxRefusedUsersPerNamespace
	if ask(t, g, requester("ns-0", "s", "name:one-more"), neutronclient.TokenRejected) {
		t.Error("a namespace holding more than its share of a full record was tried")
	}
	if !ask(t, g, requester("calm", "openstack", "name:new-user"), neutronclient.TokenRejected) {
		t.Errorf("a namespace with no entry was held by a record that %d others filled", namespaces)
	}
	if n := len(record.durable(t)); n != MaxRecordedUsers+1 {
		t.Errorf("%d entries in the record, want %d", n, MaxRecordedUsers+1)
	}
}

// A user's ID and name, joined by a token, stay one user after a restart.
func TestIDAndNameStayOneUserAfterARestart(t *testing.T) {
	record := newFakeRecord()
	g := restarted(t, record, noErrors(t))
	appCred := neutronclient.TokenRequester{Account: "app cred", Keystone: gateKeystone, Source: "team-c/openstack", Turn: "team-c"}
	ask(t, g, requester("hostile", "by-name", "name:carol"), neutronclient.TokenRejected)
	g.Authenticated(appCred, "u-1", "Carol")
	ask(t, g, requester("hostile", "by-id", "id:u-1"), neutronclient.TokenRejected)

	g = restarted(t, record, noErrors(t))
	if ask(t, g, requester("hostile", "by-name-again", "name:carol"), neutronclient.TokenRejected) {
		t.Error("a third refusal in a row was sent: the ID and the name were counted apart after a restart")
	}
	if n := len(record.durable(t)); n != 1 {
		t.Errorf("%d entries for one user, want 1", n)
	}
}
