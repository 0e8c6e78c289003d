package proto

import (
	"math"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The protobuf encoding of one scalar value given as its stored bits (the
// little-endian bits a payload holds: int32 and enums as 32 bits, bool as
// one byte, floats as IEEE-754). Shared by this package and the ROS1
// converters.

// WireType returns the wire type of a value of kind k.
func WireType(k protoreflect.Kind) protowire.Type {
	switch k {
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		return protowire.Fixed32Type
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		return protowire.Fixed64Type
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.MessageKind, protoreflect.GroupKind:
		return protowire.BytesType
	}
	return protowire.VarintType
}

// Varint returns the varint protobuf writes for the stored bits of a
// varint-encoded value of kind k (sign-extended int32 and enums, zigzag for
// sint32/sint64, 0 or 1 for bool).
func Varint(k protoreflect.Kind, bits uint64) uint64 {
	switch k {
	case protoreflect.Int32Kind, protoreflect.EnumKind:
		return uint64(int64(int32(bits)))
	case protoreflect.Uint32Kind:
		return uint64(uint32(bits))
	case protoreflect.Sint32Kind:
		return uint64(protowire.EncodeZigZag(int64(int32(bits))) & math.MaxUint32)
	case protoreflect.Sint64Kind:
		return protowire.EncodeZigZag(int64(bits))
	case protoreflect.BoolKind:
		if bits&0xFF != 0 {
			return 1
		}
		return 0
	}
	return bits
}

// AppendValue appends the encoding (without tag) of a value of kind k.
func AppendValue(b []byte, k protoreflect.Kind, bits uint64) []byte {
	switch WireType(k) {
	case protowire.Fixed32Type:
		return protowire.AppendFixed32(b, uint32(bits))
	case protowire.Fixed64Type:
		return protowire.AppendFixed64(b, bits)
	}
	return protowire.AppendVarint(b, Varint(k, bits))
}

// SizeValue returns the length of the encoding of a value of kind k.
func SizeValue(k protoreflect.Kind, bits uint64) int {
	switch WireType(k) {
	case protowire.Fixed32Type:
		return 4
	case protowire.Fixed64Type:
		return 8
	}
	return protowire.SizeVarint(Varint(k, bits))
}

// ConsumeValue parses one value of kind k, encoded with its wire type, and
// returns its stored bits and length (a negative length on error, as
// protowire reports it).
func ConsumeValue(k protoreflect.Kind, b []byte) (uint64, int) {
	switch WireType(k) {
	case protowire.Fixed32Type:
		v, n := protowire.ConsumeFixed32(b)
		return uint64(v), n
	case protowire.Fixed64Type:
		return protowire.ConsumeFixed64(b)
	}
	v, n := protowire.ConsumeVarint(b)
	if n < 0 {
		return 0, n
	}
	switch k {
	case protoreflect.Sint32Kind:
		return uint64(uint32(int32(protowire.DecodeZigZag(v & math.MaxUint32)))), n
	case protoreflect.Sint64Kind:
		return uint64(protowire.DecodeZigZag(v)), n
	case protoreflect.BoolKind:
		if v != 0 {
			return 1, n
		}
		return 0, n
	}
	return v, n
}
