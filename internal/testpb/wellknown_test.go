package testpb_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	gproto "google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/apipb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/sourcecontextpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/typepb"

	"github.com/phaser-go/phaser/types/known/apipbphaser"
	"github.com/phaser-go/phaser/types/known/fieldmaskpbphaser"
	"github.com/phaser-go/phaser/types/known/sourcecontextpbphaser"
	"github.com/phaser-go/phaser/types/known/structpbphaser"
	"github.com/phaser-go/phaser/types/known/typepbphaser"
)

// wellKnownHandle is what the shipped handles of every well-known type
// have.
type wellKnownHandle interface {
	gproto.Message
	UnmarshalProto([]byte) error
	MarshalProto() ([]byte, error)
	Failed() bool
}

// TestWellKnownHandles fills random messages of the well-known types
// whose handles ship in types/known (beyond Timestamp, Duration, the
// wrappers and Empty, which the other tests use): each unmarshals into its
// handle, marshals to protobuf-go's bytes, and equals protobuf-go's message
// through the handle's reflection.
func TestWellKnownHandles(t *testing.T) {
	registerAll(t)
	for _, tc := range []struct {
		ref    gproto.Message
		handle func() wellKnownHandle
	}{
		{&structpb.Struct{}, func() wellKnownHandle { return structpbphaser.NewStruct() }},
		{&structpb.Value{}, func() wellKnownHandle { return structpbphaser.NewValue() }},
		{&structpb.ListValue{}, func() wellKnownHandle { return structpbphaser.NewListValue() }},
		{&fieldmaskpb.FieldMask{}, func() wellKnownHandle { return fieldmaskpbphaser.NewFieldMask() }},
		{&sourcecontextpb.SourceContext{}, func() wellKnownHandle { return sourcecontextpbphaser.NewSourceContext() }},
		{&typepb.Type{}, func() wellKnownHandle { return typepbphaser.NewType() }},
		{&typepb.Field{}, func() wellKnownHandle { return typepbphaser.NewField() }},
		{&typepb.Enum{}, func() wellKnownHandle { return typepbphaser.NewEnum() }},
		{&typepb.EnumValue{}, func() wellKnownHandle { return typepbphaser.NewEnumValue() }},
		{&typepb.Option{}, func() wellKnownHandle { return typepbphaser.NewOption() }},
		{&apipb.Api{}, func() wellKnownHandle { return apipbphaser.NewApi() }},
		{&apipb.Method{}, func() wellKnownHandle { return apipbphaser.NewMethod() }},
		{&apipb.Mixin{}, func() wellKnownHandle { return apipbphaser.NewMixin() }},
	} {
		name := string(tc.ref.ProtoReflect().Descriptor().FullName())
		t.Run(name, func(t *testing.T) {
			for seed := range uint64(100) {
				rng := rand.New(rand.NewPCG(seed, 0x77e11))
				src := tc.ref.ProtoReflect().New()
				fill(rng, src, 0)
				ref, err := gproto.MarshalOptions{Deterministic: true}.Marshal(src.Interface())
				if err != nil {
					t.Fatal(err)
				}
				x := tc.handle()
				if err := x.UnmarshalProto(ref); err != nil {
					t.Fatalf("seed %d: UnmarshalProto: %v", seed, err)
				}
				got, err := x.MarshalProto()
				if err != nil || !bytes.Equal(got, ref) {
					t.Fatalf("seed %d: MarshalProto = % x, %v\nwant % x", seed, got, err, ref)
				}
				if !gproto.Equal(x, src.Interface()) || x.Failed() {
					t.Fatalf("seed %d: the handle differs from protobuf-go's message (Failed %v)", seed, x.Failed())
				}
			}
		})
	}
}

// TestStructHandle builds a google.protobuf.Struct through the typed
// handles and compares it with structpb's.
func TestStructHandle(t *testing.T) {
	s := structpbphaser.NewStruct()
	e := s.Fields().Append()
	e.SetKey("name")
	e.MutableValue().SetStringValue("robot")
	e = s.Fields().Append()
	e.SetKey("joints")
	l := e.MutableValue().MutableListValue()
	l.Values().Append().SetNumberValue(1.5)
	l.Values().Append().SetBoolValue(true)
	l.Values().Append().SetNullValue(structpbphaser.NullValue_NULL_VALUE)
	want, err := structpb.NewStruct(map[string]any{"name": "robot", "joints": []any{1.5, true, nil}})
	if err != nil {
		t.Fatal(err)
	}
	if !gproto.Equal(s, want) || s.Failed() {
		t.Errorf("Struct handle = %v, want %v", s, want)
	}
}
