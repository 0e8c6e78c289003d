package testpbphaser_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// TestFixedTooSmall walks memory sizes up from 0: NewXIn fails with
// ErrTooSmall while the buffer header does not fit, then with ErrNoFit
// while the message does not, then succeeds, and stays successful.
func TestFixedTooSmall(t *testing.T) {
	for _, opts := range []runtime.Options{{}, {Version: payloadbuffer.V3}, {Tuning: payloadbuffer.Size}} {
		t.Run(fmt.Sprintf("v%d-%v", opts.Version, opts.Tuning), func(t *testing.T) {
			var tooSmall, noFit, fits int
			for n := 0; n <= 2048; n++ {
				x, err := pb.NewEverythingIn(make([]byte, n), opts)
				switch {
				case err == nil:
					if fits == 0 {
						fits = n
					}
					if x.Failed() || x.Err() != nil || !x.IsPresent() {
						t.Fatalf("%d bytes: created, but Failed %v Err %v", n, x.Failed(), x.Err())
					}
				case fits != 0:
					t.Fatalf("%d bytes: %v, but %d bytes were enough", n, err, fits)
				case errors.Is(err, runtime.ErrTooSmall):
					if noFit != 0 {
						t.Fatalf("%d bytes: ErrTooSmall after ErrNoFit", n)
					}
					tooSmall++
				case errors.Is(err, runtime.ErrNoFit):
					noFit++
					if x.IsPresent() {
						t.Fatalf("%d bytes: a failed NewEverythingIn returned a message", n)
					}
				default:
					t.Fatalf("%d bytes: unexpected error %v", n, err)
				}
			}
			if tooSmall == 0 || noFit == 0 || fits == 0 {
				t.Fatalf("too small for the header up to %d bytes, for the message %d more, fits from %d", tooSmall, noFit, fits)
			}
			t.Logf("header needs %d bytes, Everything fits in %d", tooSmall, fits)
			// Other messages fail the same way.
			if _, err := pb.NewWideIn(make([]byte, tooSmall+1), opts); !errors.Is(err, runtime.ErrNoFit) {
				t.Errorf("Wide in %d bytes: %v, want ErrNoFit", tooSmall+1, err)
			}
			if _, err := pb.NewEmptyIn(make([]byte, tooSmall-1), opts); !errors.Is(err, runtime.ErrTooSmall) {
				t.Errorf("Empty in %d bytes: %v, want ErrTooSmall", tooSmall-1, err)
			}
		})
	}
}

// TestFixedFull fills a fixed buffer: writes that do not fit set Failed and
// Err, and everything written before stays readable.
func TestFixedFull(t *testing.T) {
	for _, opts := range []runtime.Options{{Version: payloadbuffer.V2}, {Version: payloadbuffer.V2, Tuning: payloadbuffer.Size}, {Version: payloadbuffer.V3}} {
		t.Run(fmt.Sprintf("v%d-%v", opts.Version, opts.Tuning), func(t *testing.T) {
			mem := make([]byte, 4096)
			x, err := pb.NewInnerIn(mem, opts)
			if err != nil {
				t.Fatal(err)
			}
			x.SetA(5)
			x.SetS("kept")
			names := x.MutableDeep().Names()
			var added []string
			for i := 0; !x.Failed(); i++ {
				if i > 1000 {
					t.Fatal("a 4 KiB buffer never filled up")
				}
				s := fmt.Sprintf("name-%03d", i)
				names.Append(s)
				if !x.Failed() {
					added = append(added, s)
				}
			}
			if !errors.Is(x.Err(), runtime.ErrFull) {
				t.Errorf("Err = %v, want ErrFull", x.Err())
			}
			// Writes that need room fail and change nothing readable.
			x.SetS("a much longer string that cannot fit in the little room left, surely")
			x.MutableDeep().Names().Append("more")
			x.MutableDeep().Names().Set(0, "a much longer string that cannot fit in the little room left, surely")
			check := func(y pb.Inner) {
				t.Helper()
				if y.A() != 5 || y.S() != "kept" && y.S() != "a much longer string that cannot fit in the little room left, surely" {
					t.Errorf("after the buffer filled: A %d, S %q", y.A(), y.S())
				}
				if got := stringsOf(y.Deep().Names()); !slices.Equal(got, added) {
					t.Errorf("names = %d elements, want %d", len(got), len(added))
				}
			}
			check(x)
			if x.S() != "kept" {
				t.Errorf("S = %q after a failed SetS", x.S())
			}
			if !x.Failed() {
				t.Error("Failed was reset")
			}
			// An in-place write still works: it needs no allocation.
			x.SetA(6)
			if x.A() != 6 {
				t.Error("scalar write after the buffer filled")
			}
			x.SetA(5)
			if opts.Version != payloadbuffer.V3 {
				// A V2 payload read back shows the content; a V3 payload
				// records the failure in its header and reads as empty.
				check(must(pb.ReadInner(bytes.Clone(x.Bytes()))))
			} else if r := must(pb.ReadInner(bytes.Clone(x.Bytes()))); r.IsPresent() {
				t.Error("a failed V3 payload reads as a message")
			}
		})
	}
}

// TestWide sets the fields of a message with more than 32 presence bits one
// at a time: each one's presence is its own.
func TestWide(t *testing.T) {
	for _, mk := range makers(pb.NewWide, pb.NewWideIn) {
		t.Run(mk.name, func(t *testing.T) {
			x := mk.new(t)
			v := reflect.ValueOf(x)
			typ := x.PhaserType()
			const n = 40
			call := func(name string, args ...reflect.Value) []reflect.Value {
				m := v.MethodByName(name)
				if !m.IsValid() {
					t.Fatalf("no method %s", name)
				}
				return m.Call(args)
			}
			for i := range n {
				name := fmt.Sprintf("W%02d", i)
				arg := reflect.New(v.MethodByName(name).Type().Out(0)).Elem()
				switch arg.Kind() {
				case reflect.Bool:
					arg.SetBool(true)
				case reflect.Float32, reflect.Float64:
					arg.SetFloat(float64(i) + 0.5)
				case reflect.Int32, reflect.Int64:
					arg.SetInt(-int64(i) - 1)
				default:
					arg.SetUint(uint64(i) + 1)
				}
				call("Set"+name, arg)
				fields := typ.Descriptor().Fields()
				for j := range fields.Len() {
					if has := x.Msg().Has(fields.Get(j)); has != (j <= i) {
						t.Fatalf("after setting w%02d: Has(%s) = %v", i, fields.Get(j).Name(), has)
					}
				}
				if got := call(name)[0].Interface(); got != arg.Interface() {
					t.Errorf("%s = %v, want %v", name, got, arg.Interface())
				}
			}
			for i := 0; i < n; i += 2 {
				call(fmt.Sprintf("ClearW%02d", i))
			}
			r := reflect.ValueOf(must(pb.ReadWide(x.Bytes())))
			for i := range n {
				has := r.MethodByName(fmt.Sprintf("HasW%02d", i)).Call(nil)[0].Bool()
				if has != (i%2 == 1) {
					t.Errorf("HasW%02d = %v after clearing the even fields", i, has)
				}
			}
			checkWritten(t, x)
		})
	}
}
