// Package grpccodec is a gRPC codec for phaser-go handles: with it, a
// generated handle (or a runtime.Msg) is a gRPC request or response of
// grpc-go, and its peers see ordinary protobuf.
//
// Sending writes the payload's protobuf encoding straight from the payload
// into a buffer of grpc-go's pool; receiving parses the message straight
// into the target handle's payload, which a caller reuses from message to
// message: neither allocates beyond what grpc-go itself does. Values that
// are not phaser handles (protobuf-go messages) are encoded as grpc-go's
// own codec encodes them, so one codec serves a whole process.
//
// The codec's name is "proto", the content subtype protobuf peers use, so
// that it interoperates with any gRPC implementation. Use it on one
// connection or server,
//
//	conn, err := grpc.NewClient(target, grpc.WithDefaultCallOptions(grpc.ForceCodecV2(grpccodec.Codec{})), ...)
//	srv := grpc.NewServer(grpc.ForceServerCodecV2(grpccodec.Codec{}))
//
// or for the whole process with Register.
//
// A receive target is a handle on a present, writable message: a
// NewX() handle (its payload is reused by every receive) or a pointer to
// a handle, which a receive that finds it absent (new(X), say) points at a
// new message first. Received bytes replace the target's content.
//
// Generated code of protoc-gen-go-grpc takes protobuf-go types; with
// phaser handles, call conn.Invoke and conn.NewStream on the client side
// and describe a service with a grpc.ServiceDesc whose handlers decode into
// handles on the server side (see the example).
package grpccodec

import (
	"errors"
	"fmt"
	"reflect"

	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/protoadapt"

	phaserproto "github.com/phaser-go/phaser/proto"
	"github.com/phaser-go/phaser/runtime"
)

// Name is the codec's name: gRPC's protobuf content subtype.
const Name = "proto"

// Codec is the codec: an encoding.CodecV2 of grpc-go.
type Codec struct{}

var _ encoding.CodecV2 = Codec{}

// Register makes Codec the process's codec of content subtype "proto",
// replacing grpc-go's own for every client and server that does not force
// another. Call it before creating clients and servers (in an init
// function, say): grpc-go's registry is not safe for concurrent use.
func Register() { encoding.RegisterCodecV2(Codec{}) }

// Name returns "proto".
func (Codec) Name() string { return Name }

// handle is what generated handles have in common with runtime.Msg for the
// codec.
type handle interface{ Msg() runtime.Msg }

// msgOf returns the untyped handle of v if v is a phaser handle (a
// generated handle, a pointer to one, a runtime.Msg or a pointer to one).
func msgOf(v any) (runtime.Msg, bool) {
	switch h := v.(type) {
	case runtime.Msg:
		return h, true
	case *runtime.Msg:
		if h == nil {
			return runtime.Msg{}, true
		}
		return *h, true
	case handle:
		if p := reflect.ValueOf(v); p.Kind() == reflect.Pointer && p.IsNil() {
			return runtime.Msg{}, true
		}
		return h.Msg(), true
	}
	return runtime.Msg{}, false
}

// Marshal returns the protobuf encoding of v: a phaser handle's written
// straight from its payload, a protobuf-go message's as grpc-go's codec
// writes it. Messages of mem.IsBelowBufferPoolingThreshold bytes or less
// get a buffer of their own, larger ones one of grpc-go's pool.
func (Codec) Marshal(v any) (mem.BufferSlice, error) {
	m, ok := msgOf(v)
	if !ok {
		return marshalProto(v)
	}
	if m.Type() == nil { // the zero runtime.Msg, or a nil pointer: no message
		return nil, nil
	}
	n, err := phaserproto.Size(m)
	if err != nil {
		return nil, fmt.Errorf("grpccodec: marshal %s: %w", m.Type().Name(), err)
	}
	if mem.IsBelowBufferPoolingThreshold(n) {
		b, err := phaserproto.Append(make([]byte, 0, n), m)
		if err != nil {
			return nil, fmt.Errorf("grpccodec: marshal %s: %w", m.Type().Name(), err)
		}
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	pool := mem.DefaultBufferPool()
	buf := pool.Get(n)
	b, err := phaserproto.Append((*buf)[:0], m)
	if err != nil {
		pool.Put(buf)
		return nil, fmt.Errorf("grpccodec: marshal %s: %w", m.Type().Name(), err)
	}
	if len(b) != n || cap(b) != cap(*buf) {
		// Size and Append disagreed (a payload written concurrently):
		// send what Append wrote, in a buffer of its own.
		pool.Put(buf)
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	*buf = b
	return mem.BufferSlice{mem.NewBuffer(buf, pool)}, nil
}

// Unmarshal parses data into v: into a phaser handle's payload (replacing
// its content), or into a protobuf-go message as grpc-go's codec does.
func (Codec) Unmarshal(data mem.BufferSlice, v any) error {
	m, ok := msgOf(v)
	if !ok {
		return unmarshalProto(data, v)
	}
	if !m.IsPresent() {
		var err error
		if m, err = allocate(v); err != nil {
			return err
		}
	}
	var b []byte
	if len(data) == 1 {
		b = data[0].ReadOnlyData() // no copy: the common case
	} else {
		buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
		defer buf.Free()
		b = buf.ReadOnlyData()
	}
	if err := phaserproto.Unmarshal(b, m); err != nil {
		return fmt.Errorf("grpccodec: unmarshal %s: %w", m.Type().Name(), err)
	}
	return nil
}

// errTarget reports a receive target that cannot hold a message.
var errTarget = errors.New("grpccodec: receive target holds no message: pass a handle made by NewX, or a pointer to a handle")

// allocate points v, a pointer to an absent handle, at a new message of
// its type and returns it.
func allocate(v any) (runtime.Msg, error) {
	p := reflect.ValueOf(v)
	if p.Kind() != reflect.Pointer || p.IsNil() {
		return runtime.Msg{}, fmt.Errorf("%w (got an absent %T)", errTarget, v)
	}
	pm, ok := p.Elem().Interface().(proto.Message)
	if !ok {
		return runtime.Msg{}, fmt.Errorf("%w (got %T)", errTarget, v)
	}
	var nm proto.Message
	func() {
		defer func() { _ = recover() }() // the zero runtime.Msg has no type
		nm = pm.ProtoReflect().Type().New().Interface()
	}()
	if nm == nil {
		return runtime.Msg{}, fmt.Errorf("%w (got a %T without a type)", errTarget, v)
	}
	p.Elem().Set(reflect.ValueOf(nm))
	m, _ := msgOf(nm)
	return m, nil
}

// marshalProto and unmarshalProto are grpc-go's codec, for values that are
// not phaser handles.
func marshalProto(v any) (mem.BufferSlice, error) {
	vv := messageV2Of(v)
	if vv == nil {
		return nil, fmt.Errorf("grpccodec: marshal %T: not a phaser handle or a protobuf message", v)
	}
	size := proto.Size(vv)
	opts := proto.MarshalOptions{UseCachedSize: true} // Size just ran
	if mem.IsBelowBufferPoolingThreshold(size) {
		b, err := opts.Marshal(vv)
		if err != nil {
			return nil, err
		}
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	pool := mem.DefaultBufferPool()
	buf := pool.Get(size)
	if _, err := opts.MarshalAppend((*buf)[:0], vv); err != nil {
		pool.Put(buf)
		return nil, err
	}
	return mem.BufferSlice{mem.NewBuffer(buf, pool)}, nil
}

func unmarshalProto(data mem.BufferSlice, v any) error {
	vv := messageV2Of(v)
	if vv == nil {
		return fmt.Errorf("grpccodec: unmarshal into %T: not a phaser handle or a protobuf message", v)
	}
	buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
	defer buf.Free()
	return proto.Unmarshal(buf.ReadOnlyData(), vv)
}

func messageV2Of(v any) proto.Message {
	switch v := v.(type) {
	case protoadapt.MessageV1:
		return protoadapt.MessageV2Of(v)
	case protoadapt.MessageV2:
		return v
	}
	return nil
}
