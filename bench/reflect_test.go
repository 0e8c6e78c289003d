package bench

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	protobuf "google.golang.org/protobuf/proto"

	"github.com/phaser-go/phaser/bench/gen/pb"
	"github.com/phaser-go/phaser/bench/gen/pb/pbphaser"
)

// Protobuf reflection over payloads (the handles' ProtoReflect) against
// protobuf-go's generated structs, on the same message:
//
//	BenchmarkReflect/<op>/<shape>/<lib>
//
// op JSON is protojson.Marshal, Text prototext.Marshal, Equal proto.Equal
// of two copies of the message; lib protobuf is the protoc-gen-go struct,
// phaser the handle of a payload (a view: values read from the payload as
// the encoder asks for them), phaser-read the same through a read-only
// handle on the payload's bytes (ReadX: received bytes, whose views first
// walk the payload to bound the work a hostile one could cause),
// phaser-toproto the handle's ToProto copy
// into dynamicpb followed by the same call (what a program did before the
// view existed). Every lib's output is checked to be byte-equal to
// protobuf-go's before the loop. run-reflect runs these from two binaries
// and writes results/reflect.md.

func BenchmarkReflect(b *testing.B) {
	for _, op := range []string{"JSON", "Text", "Equal"} {
		for _, shape := range []string{"small", "header", "imu", "cloud"} {
			ref, x, ro := reflectPair(b, shape)
			ref2, x2, ro2 := reflectPair(b, shape)
			libs := []struct {
				name  string
				m, m2 protobuf.Message
			}{
				{"protobuf", ref, ref2},
				{"phaser", x, x2},
				{"phaser-read", ro, ro2},
				{"phaser-toproto", nil, nil},
			}
			want := reflectOp(b, op, ref, ref2)
			for _, lib := range libs {
				b.Run(op+"/"+shape+"/"+lib.name, func(b *testing.B) {
					run := func() []byte { return reflectOp(b, op, lib.m, lib.m2) }
					if lib.m == nil { // ToProto, then the op
						run = func() []byte {
							c, err := x.ToProto()
							if err != nil {
								b.Fatal(err)
							}
							c2 := c
							if op == "Equal" {
								if c2, err = x2.ToProto(); err != nil {
									b.Fatal(err)
								}
							}
							return reflectOp(b, op, c, c2)
						}
					}
					if got := run(); !bytes.Equal(got, want) {
						b.Fatalf("%s of %s differs from protobuf-go's\n got %.200s\nwant %.200s", op, lib.name, got, want)
					}
					b.ReportAllocs()
					timed(b, func() uint64 {
						var n uint64
						for b.Loop() {
							n += uint64(len(run()))
						}
						return n
					})
				})
			}
		}
	}
}

// reflectOp runs op on m (and m2) and returns its output: the encoding,
// or for Equal one byte.
func reflectOp(b *testing.B, op string, m, m2 protobuf.Message) []byte {
	var out []byte
	var err error
	switch op {
	case "JSON":
		out, err = protojson.Marshal(m)
	case "Text":
		out, err = prototext.Marshal(m)
	case "Equal":
		if protobuf.Equal(m, m2) {
			out = []byte{1}
		}
	}
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// reflectPair returns value 0 of shape as a protobuf-go struct, as a
// phaser-go handle (an owned payload, Phaser 3) holding the same message,
// and as a read-only handle on that payload's bytes.
func reflectPair(b *testing.B, shape string) (protobuf.Message, interface {
	protobuf.Message
	ToProto() (protobuf.Message, error)
	UnmarshalProto([]byte) error
}, protobuf.Message) {
	var ref protobuf.Message
	var x interface {
		protobuf.Message
		ToProto() (protobuf.Message, error)
		UnmarshalProto([]byte) error
		Bytes() []byte
	}
	var read func([]byte) (protobuf.Message, error)
	switch shape {
	case "small":
		m := new(pb.SmallStruct)
		pbSetSmall(m, &Values.Small[0])
		ref, x = m, pbphaser.NewSmallStruct()
		read = func(d []byte) (protobuf.Message, error) { return pbphaser.ReadSmallStruct(d) }
	case "header":
		m := new(pb.Header)
		pbSetHeader(m, &Values.Header[0])
		ref, x = m, pbphaser.NewHeader()
		read = func(d []byte) (protobuf.Message, error) { return pbphaser.ReadHeader(d) }
	case "imu":
		m := new(pb.Imu)
		pbSetImu(m, &Values.Imu[0])
		ref, x = m, pbphaser.NewImu()
		read = func(d []byte) (protobuf.Message, error) { return pbphaser.ReadImu(d) }
	case "cloud":
		m := new(pb.Cloud)
		pbSetCloud(m, &Values.Cloud[0])
		ref, x = m, pbphaser.NewCloud()
		read = func(d []byte) (protobuf.Message, error) { return pbphaser.ReadCloud(d) }
	default:
		b.Fatalf("no shape %s", shape)
	}
	wire, err := protobuf.MarshalOptions{Deterministic: true}.Marshal(ref)
	if err != nil {
		b.Fatal(err)
	}
	if err := x.UnmarshalProto(wire); err != nil {
		b.Fatal(err)
	}
	ro, err := read(x.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	return ref, x, ro
}
