package neutronstore

import (
	"fmt"
	"math"
	"reflect"
	"time"

	"github.com/samplecrd/network-controller/pkg/neutron"
)

// How a record writes and reads a value of each type, derived from the type by
// reflection: every field, in the order the struct declares them, recursively. So a field
// added to neutron.Network or neutron.Subnet is kept with no code here, and a kind the
// record cannot hold (a map, an interface) panics when the package is initialised, which
// fails every test of the store rather than losing the field silently.
//
// The derivation is done once per type; what runs per record is a closure per field. The
// record is packed at each change the store records and unpacked at each read of a pass:
// see BenchmarkRecordPack and BenchmarkRecordUnpack for what that costs.

// valueCodec writes and reads one value of its type. read's v is settable.
type valueCodec struct {
	write func(w *recordWriter, v reflect.Value)
	read  func(r *recordReader, v reflect.Value)
}

var (
	networkCodec = codecOf(reflect.TypeFor[neutron.Network]())
	subnetCodec  = codecOf(reflect.TypeFor[neutron.Subnet]())
	// networkStrings are the network's fields of kind string, which its subnets refer to
	// rather than repeat (a subnet normally has the network's name, description, project
	// and, as its network ID, the network's ID).
	networkStrings = stringFields(reflect.TypeFor[neutron.Network]())
)

var timeType = reflect.TypeFor[time.Time]()

// codecOf derives the codec of t.
func codecOf(t reflect.Type) valueCodec {
	return codecOfType(t, map[reflect.Type]bool{})
}

// codecOfType derives the codec of t; deriving holds the struct types being derived, so
// that a type that contains itself panics instead of recursing forever.
func codecOfType(t reflect.Type, deriving map[reflect.Type]bool) valueCodec {
	switch t.Kind() {
	case reflect.String:
		return valueCodec{
			write: func(w *recordWriter, v reflect.Value) { w.str(v.String()) },
			read:  func(r *recordReader, v reflect.Value) { v.SetString(r.str()) },
		}
	case reflect.Bool:
		return valueCodec{
			write: func(w *recordWriter, v reflect.Value) { w.bool(v.Bool()) },
			read:  func(r *recordReader, v reflect.Value) { v.SetBool(r.bool()) },
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return valueCodec{
			write: func(w *recordWriter, v reflect.Value) { w.varint(v.Int()) },
			read:  func(r *recordReader, v reflect.Value) { v.SetInt(r.varint()) },
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return valueCodec{
			write: func(w *recordWriter, v reflect.Value) { w.uvarint(v.Uint()) },
			read:  func(r *recordReader, v reflect.Value) { v.SetUint(r.uvarint()) },
		}
	case reflect.Float32, reflect.Float64:
		return valueCodec{
			write: func(w *recordWriter, v reflect.Value) { w.uvarint(math.Float64bits(v.Float())) },
			read:  func(r *recordReader, v reflect.Value) { v.SetFloat(math.Float64frombits(r.uvarint())) },
		}
	case reflect.Pointer:
		if t.Elem().Kind() == reflect.Bool {
			return optionalBoolCodec(t)
		}
		return pointerCodec(t, codecOfType(t.Elem(), deriving))
	case reflect.Slice:
		return sliceCodec(t, codecOfType(t.Elem(), deriving))
	case reflect.Struct:
		if t == timeType {
			return valueCodec{
				write: func(w *recordWriter, v reflect.Value) { w.time(*v.Addr().Interface().(*time.Time)) },
				read:  func(r *recordReader, v reflect.Value) { *v.Addr().Interface().(*time.Time) = r.time() },
			}
		}
		if deriving[t] {
			panic(fmt.Sprintf("neutronstore: a record cannot hold %s, which contains itself", t))
		}
		deriving[t] = true
		defer delete(deriving, t)
		return structCodec(t, deriving)
	}
	panic(fmt.Sprintf("neutronstore: a record cannot hold %s (kind %s): add its kind to codecOfType", t, t.Kind()))
}

// pointerCodec writes whether the pointer is nil, then what it points to.
func pointerCodec(t reflect.Type, elem valueCodec) valueCodec {
	return valueCodec{
		write: func(w *recordWriter, v reflect.Value) {
			w.bool(!v.IsNil())
			if !v.IsNil() {
				elem.write(w, v.Elem())
			}
		},
		read: func(r *recordReader, v reflect.Value) {
			if r.bool() {
				p := reflect.New(t.Elem())
				elem.read(r, p.Elem())
				v.Set(p)
			}
		},
	}
}

// optionalBoolCodec writes a *bool in one byte: nil, false or true.
func optionalBoolCodec(t reflect.Type) valueCodec {
	return valueCodec{
		write: func(w *recordWriter, v reflect.Value) {
			switch {
			case v.IsNil():
				w.buf = append(w.buf, 0)
			case v.Elem().Bool():
				w.buf = append(w.buf, 2)
			default:
				w.buf = append(w.buf, 1)
			}
		},
		read: func(r *recordReader, v reflect.Value) {
			if b := r.byte(); b != 0 {
				p := reflect.New(t.Elem())
				p.Elem().SetBool(b == 2)
				v.Set(p)
			}
		},
	}
}

// sliceCodec writes the length, keeping a nil slice apart from an empty one, then each
// element.
func sliceCodec(t reflect.Type, elem valueCodec) valueCodec {
	// Every empty slice read shares one empty array, as append never writes to it.
	empty := reflect.MakeSlice(t, 0, 0)
	return valueCodec{
		write: func(w *recordWriter, v reflect.Value) {
			w.count(v.Len(), v.IsNil())
			for i := range v.Len() {
				elem.write(w, v.Index(i))
			}
		},
		read: func(r *recordReader, v reflect.Value) {
			n, ok := r.count()
			if !ok {
				return
			}
			if n == 0 {
				v.Set(empty)
				return
			}
			// Grow on the nil slice v allocates the elements only, not a slice header too.
			v.Grow(n)
			v.SetLen(n)
			for i := range n {
				elem.read(r, v.Index(i))
			}
		},
	}
}

// structCodec writes each field in turn, embedded structs as any other field.
func structCodec(t reflect.Type, deriving map[reflect.Type]bool) valueCodec {
	fields := make([]valueCodec, t.NumField())
	for i := range fields {
		f := t.Field(i)
		if !f.IsExported() {
			panic(fmt.Sprintf("neutronstore: a record cannot set %s.%s, which is not exported", t, f.Name))
		}
		fields[i] = codecOfType(f.Type, deriving)
	}
	return valueCodec{
		write: func(w *recordWriter, v reflect.Value) {
			for i, f := range fields {
				f.write(w, v.Field(i))
			}
		},
		read: func(r *recordReader, v reflect.Value) {
			for i, f := range fields {
				f.read(r, v.Field(i))
			}
		},
	}
}

// stringFields returns the indices of t's fields of kind string.
func stringFields(t reflect.Type) []int {
	var out []int
	for i := range t.NumField() {
		if t.Field(i).Type.Kind() == reflect.String {
			out = append(out, i)
		}
	}
	return out
}
