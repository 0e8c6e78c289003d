package ros

import (
	"errors"
	"fmt"
	"math"

	"github.com/phaser-go/phaser/internal/impl"
)

// Scalars between the stored kind of a field and its ROS type.
//
// A field's ROS type may be narrower or wider than the value Phaser stores
// (a uint32 with ros_field type uint8, an int32 enum written as int64).
// Values convert exactly or not at all: an integer the ROS type cannot
// hold (300 or -1 in a uint8, -1 in a uint32, 2^40 in an int32) fails
// the serialization, with an error wrapping ErrRange, and so does a ROS
// value the field cannot hold when parsing (an int64 of 2^40 into an
// int32 field, a negative int8 into a uint32). Floats convert with IEEE
// rounding; a finite double beyond float32's range fails. A bool field
// writes 1 for any stored byte other than 0; an integer field written as
// a ROS bool must hold 0 or 1, and one parsed from a ROS bool holds 1 for
// any byte but 0 (a bool field holds the byte, as C++ copies it). The check is made when the bytes are written or parsed: setters
// store what the field's protobuf type holds (protobuf encodes 300 in a
// uint32 as it is), and only ROS1 cannot carry it.

// ErrRange is wrapped by the errors about values that the other side of a
// conversion cannot hold: a stored integer too wide for its ROS type, a
// ROS value too wide for its field, a time or duration outside what ROS
// time (uint32 seconds) and duration (int32 seconds) hold.
var ErrRange = errors.New("value out of range")

// String returns the ROS name of the type ("uint8", "time"; "message" for
// a nested message).
func (t Type) String() string {
	if t == Message {
		return "message"
	}
	if int(t) < len(typeText) && typeText[t] != "" {
		return typeText[t]
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Range returns the smallest and largest value of ROS integer type t (0
// and 1 for bool); for other types, 0 and math.MaxUint64.
func (t Type) Range() (lo int64, hi uint64) { return t.bounds() }

// signed reports whether ROS integer type t is signed.
func (t Type) signed() bool {
	switch t {
	case Int8, Int16, Int32, Int64:
		return true
	}
	return false
}

// bounds returns the smallest and largest value of ROS integer type t.
func (t Type) bounds() (lo int64, hi uint64) {
	switch t {
	case Bool:
		return 0, 1
	case Int8:
		return math.MinInt8, math.MaxInt8
	case Uint8:
		return 0, math.MaxUint8
	case Int16:
		return math.MinInt16, math.MaxInt16
	case Uint16:
		return 0, math.MaxUint16
	case Int32:
		return math.MinInt32, math.MaxInt32
	case Uint32:
		return 0, math.MaxUint32
	case Int64:
		return math.MinInt64, math.MaxInt64
	}
	return 0, math.MaxUint64
}

// storedBounds returns the smallest and largest value of stored integer
// kind k.
func storedBounds(k impl.Kind) (lo int64, hi uint64) {
	switch k {
	case impl.Bool:
		return 0, 1
	case impl.Int32, impl.Enum:
		return math.MinInt32, math.MaxInt32
	case impl.Uint32:
		return 0, math.MaxUint32
	case impl.Int64:
		return math.MinInt64, math.MaxInt64
	}
	return 0, math.MaxUint64
}

// storedSigned reports whether stored integer kind k is signed.
func storedSigned(k impl.Kind) bool {
	return k == impl.Int32 || k == impl.Enum || k == impl.Int64
}

// fits reports whether the integer (s if signed, else u) lies in [lo, hi].
func fits(signed bool, s int64, u uint64, lo int64, hi uint64) bool {
	if signed && s < 0 {
		return s >= lo
	}
	if signed {
		u = uint64(s)
	}
	return u <= hi
}

// identity reports whether the stored bits of scalar item it are its ROS
// bits for every value: the same width, and the same signedness or float
// type (bools excepted: a stored byte other than 0 or 1 is written as 1).
func identity(k impl.Kind, rt Type) bool {
	switch k {
	case impl.Int32, impl.Enum:
		return rt == Int32
	case impl.Uint32:
		return rt == Uint32
	case impl.Int64:
		return rt == Int64
	case impl.Uint64:
		return rt == Uint64
	case impl.Float:
		return rt == Float32
	case impl.Double:
		return rt == Float64
	}
	return false
}

// rangeError is the error of a value v (as text) that type what cannot
// hold, for field f.
func rangeError(it *item, v any, what string) error {
	return fmt.Errorf("ros: %s: %v does not fit %s: %w", it.f.Desc.FullName(), v, what, ErrRange)
}

// rosBits converts the stored bits v of a scalar of item it to the bits of
// its ROS type (zero-extended to 64 bits), or fails with ErrRange when the
// ROS type cannot hold the value.
func rosBits(it *item, v uint64) (uint64, error) {
	k := it.f.Kind
	switch k {
	case impl.Float:
		if it.rt == Float64 {
			return math.Float64bits(float64(math.Float32frombits(uint32(v)))), nil
		}
		return uint64(uint32(v)), nil
	case impl.Double:
		if it.rt == Float32 {
			d := math.Float64frombits(v)
			f := float32(d)
			if math.IsInf(float64(f), 0) && !math.IsInf(d, 0) {
				return 0, rangeError(it, d, "float32")
			}
			return uint64(math.Float32bits(f)), nil
		}
		return v, nil
	}
	var s int64
	var u uint64
	switch k {
	case impl.Bool:
		if v&0xFF != 0 {
			u = 1
		}
	case impl.Int32, impl.Enum:
		s = int64(int32(v))
	case impl.Uint32:
		u = uint64(uint32(v))
	case impl.Int64:
		s = int64(v)
	default:
		u = v
	}
	signed := storedSigned(k)
	lo, hi := it.rt.bounds()
	if !fits(signed, s, u, lo, hi) {
		if signed {
			return 0, rangeError(it, s, it.rt.String())
		}
		return 0, rangeError(it, u, it.rt.String())
	}
	if signed {
		u = uint64(s)
	}
	if w := it.rt.Width(); w < 8 {
		u &= 1<<(8*w) - 1
	}
	return u, nil
}

// storedBits converts the bits v of a ROS value of item it (zero-extended
// to 64 bits) to the bits its field stores, or fails with ErrRange (and
// ErrInvalid: the input does not fit the schema) when the field cannot
// hold the value.
func storedBits(it *item, v uint64) (uint64, error) {
	k := it.f.Kind
	switch it.rt {
	case Float32:
		if k == impl.Double {
			return math.Float64bits(float64(math.Float32frombits(uint32(v)))), nil
		}
		return v, nil
	case Float64:
		if k == impl.Float {
			d := math.Float64frombits(v)
			f := float32(d)
			if math.IsInf(float64(f), 0) && !math.IsInf(d, 0) {
				return 0, fmt.Errorf("%w (%w)", rangeError(it, d, "the field (float)"), ErrInvalid)
			}
			return uint64(math.Float32bits(f)), nil
		}
		return v, nil
	case Bool:
		if k == impl.Bool {
			return v, nil // the byte as it is, as C++ copies it
		}
		if v != 0 { // true, as genpy reads it, in an integer field
			return 1, nil
		}
		return 0, nil
	}
	var s int64
	u := v
	signed := it.rt.signed()
	if signed {
		w := 8 * uint(it.rt.Width())
		s = int64(v<<(64-w)) >> (64 - w)
	}
	lo, hi := storedBounds(k)
	if !fits(signed, s, u, lo, hi) {
		var x any = u
		if signed {
			x = s
		}
		return 0, fmt.Errorf("%w (%w)", rangeError(it, x, "the field ("+it.f.Desc.Kind().String()+")"), ErrInvalid)
	}
	if signed {
		u = uint64(s)
	}
	switch storedSize(k) {
	case 1:
		u &= 0xFF
	case 4:
		u &= math.MaxUint32
	}
	return u, nil
}
