package testpbphaser_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/runtime"
)

// TestOpen continues writing a payload held in memory.
func TestOpen(t *testing.T) {
	mem := make([]byte, 8192)
	x, err := pb.NewEverythingIn(mem)
	if err != nil {
		t.Fatal(err)
	}
	x.MutableInner().SetS("first")
	x.Inners().Append().SetA(1)

	y, err := pb.OpenEverything(mem)
	if err != nil {
		t.Fatal(err)
	}
	if y.Inner().S() != "first" {
		t.Fatalf("opened: Inner().S() = %q", y.Inner().S())
	}
	y.Inners().Append().SetA(2)
	y.MutableInner().SetS("second, longer")
	y.SetChoiceString("opened")
	checkWritten(t, y)
	r := must(pb.ReadEverything(y.Bytes()))
	if r.Inner().S() != "second, longer" || r.Inners().Len() != 2 || r.Inners().At(1).A() != 2 || r.ChoiceString() != "opened" {
		t.Error("writes after Open")
	}
	if _, err := pb.OpenEverything(make([]byte, 64)); err == nil {
		t.Error("OpenEverything of zeroed memory succeeded")
	}
}

// TestOneofMessageArmFreed: leaving a message arm frees it, and making it
// active again gives a new, empty message.
func TestOneofMessageArmFreed(t *testing.T) {
	x := pb.NewEverything()
	x.MutableChoiceInner().SetA(8)
	x.MutableChoiceInner().SetS("s")
	x.SetChoiceInt32(1)
	if in := x.MutableChoiceInner(); in.A() != 0 || in.S() != "" {
		t.Errorf("re-made oneof message arm = %d %q", in.A(), in.S())
	}
	x.ClearChoiceInner()
	if x.WhichChoice() != 0 || x.ChoiceInner().IsPresent() {
		t.Error("ClearChoiceInner")
	}
	checkWritten(t, x)
}

// TestAnyReplaced: MutableAnyX replaces what an Any holds.
func TestAnyReplaced(t *testing.T) {
	x := pb.NewEverything()
	pb.MutableAnyInner(x.MutableAny()).SetA(1)
	pb.MutableAnyScalars(x.Any()).SetFString("now scalars")
	if _, ok := pb.InnerFromAny(x.Any()); ok {
		t.Error("the Any still holds an Inner")
	}
	if s, ok := pb.ScalarsFromAny(x.Any()); !ok || s.FString() != "now scalars" {
		t.Error("the Any does not hold the Scalars")
	}
	if !x.Any().Is(pb.Scalars{}.PhaserType()) {
		t.Error("Any.Is")
	}
	var none runtime.Any
	if _, ok := pb.InnerFromAny(none); ok || none.IsPresent() {
		t.Error("the zero Any holds a message")
	}
	checkWritten(t, x)
}

// TestAliasing sets fields from views of the payload itself, while the
// owned buffer grows.
func TestAliasing(t *testing.T) {
	x := pb.NewInner(runtime.Options{InitialSize: 64})
	long := strings.Repeat("0123456789", 50)
	x.SetS(long)
	for range 5 {
		x.SetSBytes(x.SBytes()[1:]) // shorter, from its own bytes
		x.MutableDeep().Names().AppendBytes(x.SBytes())
		x.MutableDeep().Names().SetBytes(0, x.MutableDeep().Names().AtBytes(0))
	}
	if x.S() != long[5:] {
		t.Errorf("S = %q", x.S())
	}
	names := stringsOf(x.Deep().Names())
	for i, n := range names {
		if n != long[i+1:] && !(i == 0 && n == long[1:]) {
			t.Errorf("names[%d] = %q", i, n)
		}
	}
	// AllocateS gives room to fill in place.
	b := x.AllocateS(3)
	copy(b, "abc")
	if x.S() != "abc" {
		t.Errorf("after AllocateS: %q", x.S())
	}
	checkWritten(t, x)
}

// TestReadOnlyNested: mutable accessors of a read-only message return inert
// handles and record the error.
func TestReadOnlyNested(t *testing.T) {
	x := pb.NewEverything()
	x.MutableInner().SetA(1)
	r := must(pb.ReadEverything(bytes.Clone(x.Bytes())))
	before := bytes.Clone(r.Bytes())
	r.MutableRemote().SetId("no")
	r.MutableInner().SetA(2)
	r.Inners().Append().SetA(3)
	r.Counts().Append().SetKey("no")
	pb.MutableAnyInner(r.MutableAny()).SetA(4)
	r.MutableChoiceInner().SetA(5)
	r.Inners().Allocate(2)
	if !bytes.Equal(before, r.Bytes()) || r.Inner().A() != 1 || r.HasRemote() || r.Inners().Len() != 0 {
		t.Error("writes through a read-only message took effect")
	}
	if !errors.Is(r.Err(), runtime.ErrReadOnly) {
		t.Errorf("Err = %v", r.Err())
	}
}

// TestFixedNestedFailure: a nested message that does not fit gives an inert
// handle, and the holder keeps its content.
func TestFixedNestedFailure(t *testing.T) {
	x, err := pb.NewEverythingIn(make([]byte, 2048), runtime.Options{Tuning: 1})
	if err != nil {
		t.Fatal(err)
	}
	x.SetMode(pb.Everything_MODE_FAST)
	var last pb.Inner
	for i := 0; !x.Failed(); i++ {
		last = x.Inners().Append()
		if !x.Failed() {
			last.SetA(int32(i))
		}
	}
	if last.IsPresent() {
		t.Error("the append that failed returned a message")
	}
	last.SetA(1) // ignored
	n := x.Inners().Len()
	if n == 0 || x.Inners().At(n-1).A() != int32(n-1) || x.Mode() != pb.Everything_MODE_FAST {
		t.Errorf("after the failure: %d elements", n)
	}
	if !errors.Is(x.Err(), runtime.ErrFull) {
		t.Errorf("Err = %v", x.Err())
	}
}
