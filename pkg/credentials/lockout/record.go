package lockout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// Record holds the counts every controller of the cluster shares. A decision reads it
// (Read) and writes only what it decided, on the version it read (Write): a write after
// anyone else's fails with a conflict (apierrors.IsConflict), and the decision is made
// again on the newer counts. So no write carries a count decided on an older read.
type Record interface {
	Read(ctx context.Context) (entries map[string]string, version string, err error)
	// Write applies changes (a nil value removes the key) if the record is still at
	// version ("" for a record not made yet).
	Write(ctx context.Context, version string, changes map[string]*string) error
}

const (
	// MaxRecordEntries bounds the entries of the record for the whole cluster: an entry
	// (at most about 300 bytes) is a user with refusals in a row or a request under way,
	// so the record stays under 320 KiB, far below a ConfigMap's 1 MiB. At the bound, a
	// user with no entry is not tried (KeystoneAccountHeld) until an entry goes.
	MaxRecordEntries = 1024
	// MaxEntriesPerNamespace bounds the entries one namespace's (or one ClusterIdentity's)
	// requests made, so that it cannot fill the record for the others: past it, its
	// Secrets naming a user without an entry are not tried.
	MaxEntriesPerNamespace = 64
	// Keys and the values naming things are hashes: the record holds no user name.
	keyLength  = 32
	hashLength = 16
	maxProven  = 4
)

func hashed(s string, length int) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:length]
}

// entry is what the record says of one spelling of a user (a user ID, or a user name) at
// one Keystone, under the key of that spelling (spellingKey).
type entry struct {
	// Refusals in a row Keystone answered to requests of this spelling.
	Refusals int `json:"r,omitempty"`
	// Pending is when (Unix seconds) a request of this spelling was recorded as under way;
	// 0 for none. One older than pendingTimeout was lost with its controller, and counts
	// as a refusal.
	Pending int64 `json:"f,omitempty"`
	// Name: the spelling is a user name (else a user ID).
	Name bool `json:"n,omitempty"`
	// Turn is (the hash of) the namespace or identity whose request made the entry.
	Turn string `json:"t,omitempty"`
	// Domain is, for a name, (the hash of) the domain spelling of its refused or pending
	// request.
	Domain string `json:"d,omitempty"`
	// Link is the key of the user's other spelling as a token showed it: its name for an
	// ID; for a name, the ID of the user its refusals were counted against.
	Link string `json:"l,omitempty"`
	// Domains are, for an ID, (the hashes of) its user's domain spellings, by ID and by
	// name, as a token showed them.
	Domains []string `json:"ds,omitempty"`
	// Proven are (the hashes of) the sources whose credentials got a token of the user.
	Proven []string `json:"p,omitempty"`
	// An entry of the version before (under the same key for a spelling in ASCII) had its
	// count, and its sources hashed alike: kept, so that an upgrade forgets no refusal.
	LegacyRefusals int      `json:"refusals,omitempty"`
	LegacyProven   []string `json:"proven,omitempty"`
}

// upgraded returns e with the count an entry of the version before held.
func (e entry) upgraded() entry {
	if e.LegacyRefusals > 0 && e.Refusals == 0 {
		e.Refusals = min(e.LegacyRefusals, MaxRefusalsInARow)
	}
	for _, p := range e.LegacyProven {
		if len(e.Proven) < maxProven && len(p) == hashLength {
			e.Proven = append(e.Proven, p)
		}
	}
	e.LegacyRefusals, e.LegacyProven = 0, nil
	return e
}

func (e entry) empty() bool { return e.Refusals == 0 && e.Pending == 0 }

// valid reports whether e is an entry the controller could have written.
func (e entry) valid() bool {
	isHash := func(s string, length int) bool {
		_, err := hex.DecodeString(s)
		return len(s) == length && err == nil
	}
	ok := e.Refusals >= 0 && e.Refusals <= MaxRefusalsInARow && e.Pending >= 0 &&
		(e.Turn == "" || isHash(e.Turn, hashLength)) && (e.Domain == "" || isHash(e.Domain, hashLength)) &&
		(e.Link == "" || isHash(e.Link, keyLength)) && len(e.Domains) <= 2 && len(e.Proven) <= maxProven
	for _, d := range e.Domains {
		ok = ok && isHash(d, hashLength)
	}
	for _, p := range e.Proven {
		ok = ok && isHash(p, hashLength)
	}
	return ok
}

func (e entry) encode() *string {
	if e.empty() {
		return nil
	}
	b, err := json.Marshal(e)
	if err != nil {
		panic(fmt.Sprintf("encoding a lockout entry: %v", err)) // strings and ints only
	}
	s := string(b)
	return &s
}

// parseEntries returns the valid entries of a record that hold a count, and the keys of
// the others (invalid, or empty), which the next write removes.
func parseEntries(data map[string]string) (map[string]entry, []string) {
	return (&entryParser{}).parse(data)
}

// entryParser parses a record's entries, each value once however often it is read.
type entryParser struct{ parsed map[string]parsedEntry }

type parsedEntry struct {
	raw string
	e   entry
	ok  bool
}

func (p *entryParser) parse(data map[string]string) (map[string]entry, []string) {
	if p.parsed == nil {
		p.parsed = map[string]parsedEntry{}
	}
	out := make(map[string]entry, len(data))
	var skipped []string
	for key, value := range data {
		pe, seen := p.parsed[key]
		if !seen || pe.raw != value {
			pe = parsedEntry{raw: value}
			if len(key) == keyLength && json.Unmarshal([]byte(value), &pe.e) == nil {
				pe.e = pe.e.upgraded()
				pe.ok = pe.e.valid() && !pe.e.empty()
			}
			p.parsed[key] = pe
		}
		if !pe.ok {
			skipped = append(skipped, key)
			continue
		}
		out[key] = pe.e
	}
	for key := range p.parsed {
		if _, ok := data[key]; !ok {
			delete(p.parsed, key)
		}
	}
	return out, skipped
}

// memoryRecord is the Record of a controller run without a ConfigMap: the counts live as
// long as the process.
type memoryRecord struct {
	mu      sync.Mutex
	data    map[string]string
	version int
}

func newMemoryRecord() *memoryRecord { return &memoryRecord{data: map[string]string{}} }

func (m *memoryRecord) Read(context.Context) (map[string]string, string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]string, len(m.data))
	for k, v := range m.data {
		out[k] = v
	}
	return out, m.versionLocked(), nil
}

func (m *memoryRecord) versionLocked() string {
	if m.version == 0 {
		return ""
	}
	return strconv.Itoa(m.version)
}

func (m *memoryRecord) Write(_ context.Context, version string, changes map[string]*string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if version != m.versionLocked() {
		return apierrors.NewConflict(corev1.Resource("configmaps"), "in-memory record", fmt.Errorf("version %q, not %q", m.versionLocked(), version))
	}
	for k, v := range changes {
		if v == nil {
			delete(m.data, k)
		} else {
			m.data[k] = *v
		}
	}
	m.version++
	return nil
}
