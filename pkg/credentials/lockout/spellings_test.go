package lockout

import (
	"fmt"
	"testing"

	"github.com/samplecrd/network-controller/pkg/neutronclient"
)

// The spellings Keystone on MariaDB takes for one user (its ID; its name in any case,
// with accents or surrounding spaces, in any domain) get at most MaxRefusalsInARow
// refusals in a row together, in whatever order they come, before any token linked the
// ID to the name.
func TestSpellingsOfOneUserCountAsOne(t *testing.T) {
	spellings := []string{"id:5f3a9c0e2b7d4e1f8a6b3c2d1e0f9a8b", "name:Alice", "name:ALICE  ", "name:  alice", "name:Alicé",
		"id: 5F3A9C0E2B7D4E1F8A6B3C2D1E0F9A8B "}
	for first := range spellings {
		g := NewGate(1000, 1000, nil, nil)
		sent := 0
		for round := range 3 {
			for i := range spellings {
				spelling := spellings[(first+i)%len(spellings)]
				who := requester(fmt.Sprintf("ns-%d", i%3), fmt.Sprintf("s-%d-%d", round, i), spelling)
				if ask(t, g, who, neutronclient.TokenRejected) {
					sent++
				}
			}
		}
		if sent > MaxRefusalsInARow {
			t.Errorf("starting with %q: %d refused requests sent for one user, want at most %d", spellings[first], sent, MaxRefusalsInARow)
		}
		if sent == 0 {
			t.Errorf("starting with %q: nothing was tried", spellings[first])
		}
	}
	if got, want := canonicalLockoutUser("name: Zoë\t"), "name:zoe"; got != want {
		t.Errorf("canonicalLockoutUser = %q, want %q", got, want)
	}
}

// Once a token showed a user's ID and name, both spellings are one account with the full
// MaxRefusalsInARow; before it, another user's refused ID leaves names one each.
func TestALinkedUserGetsTheFullCount(t *testing.T) {
	g := NewGate(1000, 1000, nil, nil)
	ask(t, g, requester("team-a", "openstack", "name:dora"), neutronclient.TokenOK)
	ask(t, g, requester("hostile", "made-up-id", "id:0000"), neutronclient.TokenRejected)
	sent := 0
	for range 4 {
		if ask(t, g, requester("team-a", "openstack", "name:Dora"), neutronclient.TokenRejected) {
			sent++
		}
	}
	if sent != MaxRefusalsInARow {
		t.Errorf("%d refusals sent for a linked user, want %d", sent, MaxRefusalsInARow)
	}
	if ask(t, g, requester("team-c", "openstack", "name:erin"), neutronclient.TokenRejected) &&
		ask(t, g, requester("team-c", "openstack", "name:erin"), neutronclient.TokenRejected) {
		t.Error("an unlinked name got two refusals while an unlinked ID of its Keystone had one")
	}
}

// Controllers sharing one record (several -namespace controllers of a cluster) count
// together: between them, one user gets at most MaxRefusalsInARow refusals in a row.
func TestControllersSharingTheRecordCountTogether(t *testing.T) {
	first := newFakeRecord()
	second := first.sharing()
	a, b := restarted(t, first, noErrors(t)), restarted(t, second, noErrors(t))
	sent := 0
	for i := range 6 {
		g, ns := a, "team-a"
		if i%2 == 1 {
			g, ns = b, "team-b"
		}
		spelling := []string{"name:victim", "name:VICTIM ", "name:Victim"}[i%3]
		if ask(t, g, requester(ns, fmt.Sprintf("s-%d", i), spelling), neutronclient.TokenRejected) {
			sent++
		}
	}
	if sent > MaxRefusalsInARow {
		t.Errorf("%d refused requests sent for one user by two controllers, want at most %d", sent, MaxRefusalsInARow)
	}

	// A token through one resets the count for both, as it resets Keystone's.
	ask(t, b, requester("team-b", "typo", "name:walt"), neutronclient.TokenRejected)
	if !ask(t, a, requester("team-a", "fixed", "name:walt"), neutronclient.TokenOK) {
		t.Fatal("the first controller held a user with one refusal")
	}
	for i := range MaxRefusalsInARow {
		if !ask(t, b, requester("team-b", "typo", "name:walt"), neutronclient.TokenRejected) {
			t.Errorf("refusal %d after a token through the other controller was held: the reset was not shared", i+1)
		}
	}
}

// One controller's refusal of a user by ID leaves the other's accounts by name one refusal
// each, as its own would: the two may be one user.
func TestAnIDRefusedByOneControllerLimitsNamesAtTheOther(t *testing.T) {
	first := newFakeRecord()
	a, b := restarted(t, first, noErrors(t)), restarted(t, first.sharing(), noErrors(t))
	ask(t, a, requester("team-a", "by-id", "id:9d1f"), neutronclient.TokenRejected)
	sent := 0
	for range 3 {
		if ask(t, b, requester("team-b", "by-name", "name:frank"), neutronclient.TokenRejected) {
			sent++
		}
	}
	if sent != 1 {
		t.Errorf("%d refusals by name at the second controller after a refusal by ID at the first, want 1", sent)
	}
}
