package neutronstore

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A record is one network of the index and its subnets, packed into one string. The
// index holds every network of the cluster for as long as the controller runs, so memory
// decides the form: at 10,000 Networks of one subnet the index holds 487 B per Network
// packed (BenchmarkIndexMemory), and about 1,000 B as plain structs even with their
// repeated strings shared (string and slice headers of fields that are empty or repeat
// the network's, an allocation per short string). The price is CPU: unpacking a record,
// field by field through reflection, takes about a microsecond (BenchmarkRecordUnpack),
// twice what hand-written code took and little beside a pass's calls.
//
// The fields are written in the order their types declare them (record_codec.go): numbers
// as varints, and each string as a reference byte, followed for a literal by its length
// and bytes. A reference names one of the index's shared strings or, within a subnet, one
// of the network's string fields (its ID, name, description, project), which a subnet
// normally repeats. Unpacking returns strings that point into the record, so reading a
// record allocates only the slices and structs it returns.
type record string

// String references: a literal, the empty string, or an entry of the reference table
// (the shared strings, then in a subnet the network's string fields) from refTable on.
const (
	refLiteral = iota
	refEmpty
	refTable
	// maxRefs bounds the table: a reference is one byte.
	maxRefs = 256 - refTable
)

// Times: the zero time, a time in UTC (seconds and nanoseconds), any other (its binary
// form, which keeps the zone offset).
const (
	timeZero = iota
	timeUTC
	timeOther
)

// packRecord packs n and its subnets; shared are the index's shared strings.
func packRecord(shared []string, n neutron.Network, subnets []neutron.Subnet) record {
	// One allocation for the writer and the values the codecs' closures are given, which
	// escape analysis cannot keep on the stack.
	p := &struct {
		w       recordWriter
		network neutron.Network
		subnets []neutron.Subnet
	}{w: recordWriter{refs: shared}, network: n, subnets: subnets}
	network := reflect.ValueOf(&p.network).Elem()
	networkCodec.write(&p.w, network)
	p.w.refs = subnetRefs(shared, network)
	p.w.uvarint(uint64(len(subnets)))
	all := reflect.ValueOf(&p.subnets).Elem()
	for i := range len(subnets) {
		subnetCodec.write(&p.w, all.Index(i))
	}
	return record(p.w.buf)
}

// unpacking is one read of a record, in one allocation (see packRecord).
type unpacking struct {
	r       recordReader
	network neutron.Network
	subnets []neutron.Subnet
}

// network and subnets unpack the record; shared must be the strings it was packed with.
func (r record) network(shared []string) neutron.Network {
	u := &unpacking{r: recordReader{data: string(r), refs: shared}}
	networkCodec.read(&u.r, reflect.ValueOf(&u.network).Elem())
	return u.network
}

func (r record) subnets(shared []string) []neutron.Subnet {
	u := &unpacking{r: recordReader{data: string(r), refs: shared}}
	network := reflect.ValueOf(&u.network).Elem()
	networkCodec.read(&u.r, network)
	u.r.refs = subnetRefs(shared, network)
	count := int(u.r.uvarint())
	if count == 0 {
		return nil
	}
	all := reflect.ValueOf(&u.subnets).Elem()
	all.Grow(count)
	all.SetLen(count)
	for i := range count {
		subnetCodec.read(&u.r, all.Index(i))
	}
	return u.subnets
}

// subnetRefs is the reference table of a network's subnets: the shared strings and the
// network's string fields.
func subnetRefs(shared []string, network reflect.Value) []string {
	refs := make([]string, 0, len(shared)+len(networkStrings))
	refs = append(refs, shared...)
	for _, i := range networkStrings {
		refs = append(refs, network.Field(i).String())
	}
	return refs
}

type recordWriter struct {
	buf  []byte
	refs []string
}

func (w *recordWriter) str(s string) {
	if s == "" {
		w.buf = append(w.buf, refEmpty)
		return
	}
	for i, c := range w.refs[:min(len(w.refs), maxRefs)] {
		if s == c {
			w.buf = append(w.buf, byte(refTable+i))
			return
		}
	}
	w.buf = append(w.buf, refLiteral)
	w.uvarint(uint64(len(s)))
	w.buf = append(w.buf, s...)
}

// count writes a slice's length, keeping a nil slice apart from an empty one.
func (w *recordWriter) count(n int, isNil bool) {
	if isNil {
		w.uvarint(0)
		return
	}
	w.uvarint(uint64(n) + 1)
}

func (w *recordWriter) strs(ss []string) {
	w.count(len(ss), ss == nil)
	for _, s := range ss {
		w.str(s)
	}
}

func (w *recordWriter) time(t time.Time) {
	switch {
	case t.IsZero():
		w.buf = append(w.buf, timeZero)
	case t.Location() == time.UTC:
		w.buf = append(w.buf, timeUTC)
		w.varint(t.Unix())
		w.uvarint(uint64(t.Nanosecond()))
	default:
		b, err := t.MarshalBinary()
		if err != nil {
			// Only a zone offset beyond Go's range fails: keep the instant, in UTC.
			w.time(t.UTC())
			return
		}
		w.buf = append(w.buf, timeOther)
		w.uvarint(uint64(len(b)))
		w.buf = append(w.buf, b...)
	}
}

func (w *recordWriter) bool(b bool) {
	if b {
		w.buf = append(w.buf, 1)
	} else {
		w.buf = append(w.buf, 0)
	}
}

func (w *recordWriter) uvarint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }
func (w *recordWriter) varint(v int64)   { w.buf = binary.AppendVarint(w.buf, v) }

// recordReader reads what recordWriter wrote. A record is only ever made by packRecord,
// so a malformed one is a bug in this file: reading past its end panics rather than
// return wrong data.
type recordReader struct {
	data string
	pos  int
	refs []string
}

func (r *recordReader) str() string {
	switch ref := int(r.byte()); ref {
	case refEmpty:
		return ""
	case refLiteral:
		n := int(r.uvarint())
		s := r.data[r.pos : r.pos+n]
		r.pos += n
		return s
	default:
		return r.refs[ref-refTable]
	}
}

// count reads a slice's length; false for a nil slice.
func (r *recordReader) count() (int, bool) {
	n := r.uvarint()
	return int(n) - 1, n > 0
}

func (r *recordReader) strs() []string {
	n, ok := r.count()
	if !ok {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

func (r *recordReader) time() time.Time {
	switch r.byte() {
	case timeZero:
		return time.Time{}
	case timeUTC:
		sec := r.varint()
		return time.Unix(sec, int64(r.uvarint())).UTC()
	default:
		n := int(r.uvarint())
		var t time.Time
		if err := t.UnmarshalBinary([]byte(r.data[r.pos : r.pos+n])); err != nil {
			panic(fmt.Sprintf("neutronstore: a record's time does not decode: %v", err))
		}
		r.pos += n
		return t
	}
}

func (r *recordReader) bool() bool { return r.byte() == 1 }

func (r *recordReader) byte() byte {
	b := r.data[r.pos]
	r.pos++
	return b
}

func (r *recordReader) uvarint() uint64 {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		b := r.byte()
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v
		}
	}
}

// varint undoes binary.AppendVarint's zigzag encoding.
func (r *recordReader) varint() int64 {
	u := r.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}
