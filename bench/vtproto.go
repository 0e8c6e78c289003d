package bench

import (
	"github.com/phaser-go/phaser/bench/gen/pb"
	protobuf "google.golang.org/protobuf/proto"
)

// vtprotobuf: the protoc-gen-go structs with vtproto's generated
// SizeVT/MarshalToSizedBufferVT/UnmarshalVT.

type vtMsg interface {
	protobuf.Message
	Reset()
	SizeVT() int
	MarshalToSizedBufferVT([]byte) (int, error)
	UnmarshalVT([]byte) error
}

// vtAppend marshals m into out's memory (grown as needed).
func vtAppend(out []byte, m vtMsg) []byte {
	n := m.SizeVT()
	if cap(out) < n {
		out = make([]byte, n, 2*n)
	}
	out = out[:n]
	_, err := m.MarshalToSizedBufferVT(out)
	must(err)
	return out
}

// vtUnmarshal resets m (UnmarshalVT merges) and parses data into it.
func vtUnmarshal(data []byte, m vtMsg) error {
	m.Reset()
	return m.UnmarshalVT(data)
}

func vtprotoCodec[M vtMsg](s pbShape[M]) func() *Codec {
	return func() *Codec {
		n := N(s.shape)
		warm, rd, dst, src := s.new(), s.new(), s.new(), s.sources()
		var out []byte
		return &Codec{
			Build: func(i int) []byte {
				s.set(warm, i)
				out = vtAppend(out, warm)
				return out
			},
			Decode: func(data []byte) (any, error) {
				m := s.new()
				if err := m.UnmarshalVT(data); err != nil {
					return nil, err
				}
				return s.get(m), nil
			},
			ReadAll: func(data []byte) uint64 {
				if vtUnmarshal(data, rd) != nil {
					return 0
				}
				return s.all(rd)
			},
			ReadOne: func(data []byte) uint64 {
				if vtUnmarshal(data, rd) != nil {
					return 0
				}
				return s.one(rd)
			},
			ProtoMarshal: func(i int) []byte {
				out = vtAppend(out, src[i%n])
				return out
			},
			ProtoUnmarshal: func(pb []byte) error { return vtUnmarshal(pb, dst) },
			ProtoResult:    func() (any, error) { return s.get(dst), nil },
		}
	}
}

func init() {
	register("vtproto", "small", vtprotoCodec(pbSmall))
	register("vtproto", "header", vtprotoCodec(pbHeader))
	register("vtproto", "imu", vtprotoCodec(pbImu))
	register("vtproto", "cloud", vtprotoCodec(pbCloud))
	_ = pb.File_bench_proto
}
