package neutronstore

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// A record is one network of the index and its subnets, packed into one string. The
// index holds every network of the cluster for as long as the controller runs; as
// structs, a network and its subnet take about 1.2 KiB in a dozen allocations, mostly
// string and slice headers of fields that are empty or repeat the network's. Packed, they
// take one allocation of about the size of their text.
//
// The fields are written in a fixed order: numbers as varints, and each string as a
// reference byte, followed for a literal by its length and bytes. A reference names one of
// the index's shared strings or, within a subnet, the network's ID, name, description or
// project, which a subnet normally repeats. Unpacking returns strings that point into the
// record, so reading a record allocates only the slices and structs it returns.
type record string

// String references: a literal, the empty string, or an entry of the reference table
// (the shared strings, then in a subnet the network's fields) from refTable on.
const (
	refLiteral = iota
	refEmpty
	refTable
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
	w := recordWriter{refs: shared}
	w.network(n)
	w.refs = subnetRefs(shared, n)
	w.uvarint(uint64(len(subnets)))
	for _, s := range subnets {
		w.subnet(s)
	}
	return record(w.buf)
}

// network and subnets unpack the record; shared must be the strings it was packed with.
func (r record) network(shared []string) neutron.Network {
	rd := recordReader{data: string(r), refs: shared}
	return rd.network()
}

func (r record) subnets(shared []string) []neutron.Subnet {
	rd := recordReader{data: string(r), refs: shared}
	n := rd.network()
	rd.refs = subnetRefs(shared, n)
	count := rd.uvarint()
	if count == 0 {
		return nil
	}
	out := make([]neutron.Subnet, count)
	for i := range out {
		out[i] = rd.subnet()
	}
	return out
}

// subnetRefs is the reference table of a network's subnets.
func subnetRefs(shared []string, n neutron.Network) []string {
	return append(shared[:len(shared):len(shared)], n.ID, n.Name, n.Description, n.ProjectID)
}

type recordWriter struct {
	buf  []byte
	refs []string
}

func (w *recordWriter) network(n neutron.Network) {
	w.str(n.ID)
	w.str(n.Name)
	w.str(n.Description)
	w.strs(n.Tags)
	w.time(n.CreatedAt)
	w.varint(int64(n.MTU))
	switch {
	case n.PortSecurityEnabled == nil:
		w.buf = append(w.buf, 0)
	case *n.PortSecurityEnabled:
		w.buf = append(w.buf, 2)
	default:
		w.buf = append(w.buf, 1)
	}
	w.bool(n.QoSPolicyID != nil)
	if n.QoSPolicyID != nil {
		w.str(*n.QoSPolicyID)
	}
	w.str(n.ProjectID)
}

func (w *recordWriter) subnet(s neutron.Subnet) {
	w.str(s.ID)
	w.str(s.NetworkID)
	w.str(s.ProjectID)
	w.str(s.Name)
	w.str(s.Description)
	w.strs(s.Tags)
	w.str(s.CIDR)
	w.varint(int64(s.IPVersion))
	w.str(s.GatewayIP)
	w.count(len(s.AllocationPools), s.AllocationPools == nil)
	for _, p := range s.AllocationPools {
		w.str(p.Start)
		w.str(p.End)
	}
	w.strs(s.DNSNameservers)
	w.count(len(s.HostRoutes), s.HostRoutes == nil)
	for _, h := range s.HostRoutes {
		w.str(h.Destination)
		w.str(h.NextHop)
	}
	w.bool(s.EnableDHCP)
	w.str(s.AddressMode)
	w.str(s.RAMode)
	w.str(s.SubnetPoolID)
	w.time(s.CreatedAt)
}

func (w *recordWriter) str(s string) {
	if s == "" {
		w.buf = append(w.buf, refEmpty)
		return
	}
	for i, c := range w.refs {
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

func (r *recordReader) network() neutron.Network {
	var n neutron.Network
	n.ID = r.str()
	n.Name = r.str()
	n.Description = r.str()
	n.Tags = r.strs()
	n.CreatedAt = r.time()
	n.MTU = int(r.varint())
	switch r.byte() {
	case 1:
		n.PortSecurityEnabled = new(bool)
	case 2:
		enabled := true
		n.PortSecurityEnabled = &enabled
	}
	if r.bool() {
		qos := r.str()
		n.QoSPolicyID = &qos
	}
	n.ProjectID = r.str()
	return n
}

func (r *recordReader) subnet() neutron.Subnet {
	var s neutron.Subnet
	s.ID = r.str()
	s.NetworkID = r.str()
	s.ProjectID = r.str()
	s.Name = r.str()
	s.Description = r.str()
	s.Tags = r.strs()
	s.CIDR = r.str()
	s.IPVersion = int(r.varint())
	s.GatewayIP = r.str()
	if n, ok := r.count(); ok {
		s.AllocationPools = make([]neutron.Pool, n)
		for i := range s.AllocationPools {
			s.AllocationPools[i] = neutron.Pool{Start: r.str(), End: r.str()}
		}
	}
	s.DNSNameservers = r.strs()
	if n, ok := r.count(); ok {
		s.HostRoutes = make([]neutron.HostRoute, n)
		for i := range s.HostRoutes {
			s.HostRoutes[i] = neutron.HostRoute{Destination: r.str(), NextHop: r.str()}
		}
	}
	s.EnableDHCP = r.bool()
	s.AddressMode = r.str()
	s.RAMode = r.str()
	s.SubnetPoolID = r.str()
	s.CreatedAt = r.time()
	return s
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
