package bench

import (
	"fmt"
	"strings"
)

// Codec is one library's code for one shape. A nil function is an
// operation the library does not take part in. Every function takes a
// value index i in [0, N(shape)): the harness wraps it, so that no
// library pays for a modulo.
type Codec struct {
	// Build sets the fields of value i in a warm, reused message or buffer
	// and returns the bytes a publisher sends, valid until the next Build.
	Build func(i int) []byte
	// Republish changes one field of a message built once with value 0
	// (see Republished) to value i's, and returns the bytes to send again.
	Republish func(i int) []byte
	// Decode reads published bytes (from Build or Republish) back into a
	// plain value, allocating: for the round-trip checks only.
	Decode func(data []byte) (any, error)
	// ReadAll opens received bytes and reads every field; ReadOne opens
	// them and reads one nested field (see UseOne). Both return the sum of
	// what they read.
	ReadAll func(data []byte) uint64
	ReadOne func(data []byte) uint64
	// Source, for a reader that builds nothing itself (read-floor),
	// returns the bytes of value i that its ReadAll and ReadOne read, as
	// Build does for every other library.
	Source func(i int) []byte

	// ProtoMarshal writes value i, held in the library's own in-memory
	// form (a payload, a Go struct), as protobuf wire bytes into a reused
	// buffer. ProtoUnmarshal parses protobuf wire bytes into a reused
	// message; ProtoResult returns that message as a plain value.
	ProtoMarshal   func(i int) []byte
	ProtoUnmarshal func(pb []byte) error
	ProtoResult    func() (any, error)

	// ROSMarshal writes value i as ROS1 serialization (the message body,
	// without the TCPROS length prefix) into a reused buffer.
	// ROSUnmarshal parses a ROS1 message body into a reused message;
	// ROSResult returns that message as a plain value.
	ROSMarshal   func(i int) []byte
	ROSUnmarshal func(ros []byte) error
	ROSResult    func() (any, error)

	// Transcode converts protobuf wire bytes to ROS1 bytes.
	Transcode func(pb []byte) ([]byte, error)
}

// Libs are the libraries, in the order tables list them.
//
//   - phaser is phaser-go in its default payload format (Phaser 3);
//     phaser-v2 the same in the Phaser 2 format (for C++ Phaser 2.x peers);
//     phaser-ros phaser with handles generated with frontend=ros (inline
//     singular messages), for header and imu; phaser-new phaser building
//     with NewXIn on reused memory instead of Clear; phaser-refill phaser
//     refilling the built message without Clear, every field stored again
//     (the work protobuf-go's and vtprotobuf's Build do on their reused
//     structs), its ReadAll phaser's.
//   - flatbuffers-safe is flatbuffers with its reads under a deferred
//     recover: flatbuffers-go does not verify what it reads, and this is
//     the cheapest way to make its reads of hostile bytes safe.
//   - ros1-floor is a hand-written straight-line ROS1 writer over phaser's
//     payload bytes (floor.go), the floor of phaser's ROS1 marshal.
//   - phaser-assign builds through the generated Assign (Clear and every
//     setter in one call; small, header and imu); phaser-ros-assign the
//     same with the frontend=ros handles (header and imu, whose nested
//     messages are inline).
//   - build-floor is a hand-written straight-line Clear and fill of
//     phaser's payload (buildfloor.go, small only), the floor of phaser's
//     build after Clear.
//   - read-floor is a hand-written straight-line read of phaser's payloads
//     with the checks phaser's reads make and no Payload (readfloor.go,
//     small and header), the floor of phaser's read-one and read-all.
var Libs = []string{"phaser", "phaser-v2", "phaser-ros", "phaser-new", "phaser-refill", "phaser-assign", "phaser-ros-assign", "protobuf", "vtproto", "flatbuffers", "flatbuffers-safe",
	"capnp", "goroslib", "ros1-floor", "build-floor", "read-floor", "protobuf+goroslib", "vtproto+goroslib"}

// The operations each kind of codec takes part in (EndToEnd: every codec
// with Build and ReadAll), declared so that listing them builds no codec
// (and no buffers: 100 MiB for image16M). TestTakes checks them against
// the codecs' functions.
const (
	opsPhaser     = "Build Republish ReadAll ReadOne ProtoMarshal ProtoUnmarshal ROSMarshal ROSUnmarshal Transcode"
	opsBuild      = "Build"
	opsRefill     = "Build ReadAll"
	opsProtobuf   = "Build Republish ReadAll ReadOne ProtoMarshal ProtoUnmarshal"
	opsInPlace    = "Build Republish ReadAll ReadOne"
	opsRead       = "Build ReadAll ReadOne"
	opsReadOnly   = "ReadAll ReadOne"
	opsROS        = "Build Republish ReadAll ReadOne ROSMarshal ROSUnmarshal"
	opsROSWrite   = "Build Republish ROSMarshal"
	opsROSMarshal = "ROSMarshal"
	opsTranscode  = "Transcode"
)

var codecs = map[string]map[string]registered{}

type registered struct {
	ops map[string]bool
	mk  func() *Codec
}

func register(lib, shape, ops string, mk func() *Codec) {
	if codecs[lib] == nil {
		codecs[lib] = map[string]registered{}
	}
	r := registered{ops: map[string]bool{}, mk: mk}
	for _, op := range strings.Fields(ops) {
		r.ops[op] = true
	}
	r.ops["EndToEnd"] = r.ops["Build"] && r.ops["ReadAll"]
	codecs[lib][shape] = r
}

// NewCodec returns a fresh codec (own buffers) of lib for shape, or nil.
func NewCodec(lib, shape string) *Codec {
	if r, ok := codecs[lib][shape]; ok {
		return r.mk()
	}
	return nil
}

// Takes reports whether lib takes part in op on shape.
func Takes(lib, shape, op string) bool { return codecs[lib][shape].ops[op] }

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

//go:generate go run ./cmd/genops -o ops.go
