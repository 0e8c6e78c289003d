package impl

import (
	"slices"

	"google.golang.org/protobuf/encoding/protowire"
	gproto "google.golang.org/protobuf/proto"
)

// The order protobuf-go writes the extensions among a message's unknown
// fields in: the fields of a message with extension ranges that are
// extensions this program declares (ExtensionDeclared) are extensions to
// protobuf-go, which writes them before the known fields, by number; the
// other unknown fields come after the known fields, in the order they
// arrived.

// extRecord is a record of an unknown field that is an extension.
type extRecord struct {
	num protowire.Number
	rec []byte
}

// extScratch is how many extension records appendExtensions orders on the
// stack: more allocate.
const extScratch = 16

// AppendExtensions appends the records of unknown that are extensions of
// t, ordered by number (stable), and returns the rest of unknown, to be
// written after the known fields (AppendNonExtensions).
func AppendExtensions(b, unknown []byte, t *Type) ([]byte, bool) {
	var scratch [extScratch]extRecord
	exts := scratch[:0]
	for rest := unknown; len(rest) > 0; {
		num, typ, n := protowire.ConsumeTag(rest)
		if n < 0 {
			break
		}
		k := protowire.ConsumeFieldValue(num, typ, rest[n:])
		if k < 0 {
			break
		}
		if t.ExtensionDeclared(num, typ) {
			exts = append(exts, extRecord{num, rest[:n+k]})
		}
		rest = rest[n+k:]
	}
	if len(exts) == 0 {
		return b, false
	}
	slices.SortStableFunc(exts, func(x, y extRecord) int { return int(x.num) - int(y.num) })
	for _, e := range exts {
		b = append(b, e.rec...)
	}
	return b, true
}

// AppendNonExtensions appends the records of unknown that are not
// extensions of t.
func AppendNonExtensions(b, unknown []byte, t *Type) []byte {
	for rest := unknown; len(rest) > 0; {
		num, typ, n := protowire.ConsumeTag(rest)
		if n < 0 {
			return append(b, rest...)
		}
		k := protowire.ConsumeFieldValue(num, typ, rest[n:])
		if k < 0 {
			return append(b, rest...)
		}
		if !t.ExtensionDeclared(num, typ) {
			b = append(b, rest[:n+k]...)
		}
		rest = rest[n+k:]
	}
	return b
}

// canonicalExtensions rewrites the records of t's declared extensions
// among unknown as protobuf-go holds them after Unmarshal: the records of
// each extension decoded together (the last value of a singular field
// wins, messages merge, repeated scalars take the extension's packing)
// and encoded again, deterministically, after the other records, which
// keep their order. It reports false, and returns nil, when unknown holds
// no declared extension, or one does not decode as its type.
func canonicalExtensions(unknown []byte, t *Type) ([]byte, bool) {
	if t == nil || t.desc == nil || t.desc.ExtensionRanges().Len() == 0 {
		return nil, false
	}
	var nums []protowire.Number
	var rest []byte
	for b := unknown; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, false
		}
		k := protowire.ConsumeFieldValue(num, typ, b[n:])
		if k < 0 {
			return nil, false
		}
		if t.ExtensionDeclared(num, typ) {
			if !slices.Contains(nums, num) {
				nums = append(nums, num)
			}
		} else {
			rest = append(rest, b[:n+k]...)
		}
		b = b[n+k:]
	}
	if len(nums) == 0 {
		return nil, false
	}
	slices.Sort(nums)
	out := rest
	for _, num := range nums {
		xt := extensionOf(t, num)
		if xt == nil {
			return nil, false
		}
		var of []byte
		for b := unknown; len(b) > 0; {
			n2, typ, n := protowire.ConsumeTag(b)
			k := protowire.ConsumeFieldValue(n2, typ, b[n:])
			if n2 == num && t.ExtensionDeclared(n2, typ) {
				of = append(of, b[:n+k]...)
			}
			b = b[n+k:]
		}
		tmp, ok := decodeExtension(t.desc, xt, of)
		if !ok {
			return nil, false
		}
		enc, err := gproto.MarshalOptions{Deterministic: true, AllowPartial: true}.Marshal(tmp)
		if err != nil {
			return nil, false
		}
		out = append(out, enc...)
	}
	return out, true
}
