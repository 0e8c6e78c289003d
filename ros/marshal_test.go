package ros_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/runtime"
)

// TestMarshalFixedArrayDefaults checks the elements a fixed array does not
// store: scalars are written as zeros after the stored ones, and a message
// element is written as a default message, its own repeated and fixed
// arrays included (the default element has no payload behind it).
func TestMarshalFixedArrayDefaults(t *testing.T) {
	files := compileProtos(t, map[string]string{"fixed.proto": `
syntax = "proto3";
package fixed;
import "phaser/options.proto";
message Cell {
  repeated double values = 1;
  repeated float corners = 2 [(phaser.array_size) = 2];
  int32 id = 3;
}
message Grid {
  repeated double weights = 1 [(phaser.array_size) = 3];
  repeated Cell cells = 2 [(phaser.array_size) = 2];
}
`}, "fixed.proto")
	grid := typeIn(t, files, "fixed.Grid")
	cell := typeIn(t, files, "fixed.Cell")
	weights, cells := field(grid, "weights"), field(grid, "cells")
	values, corners, id := field(cell, "values"), field(cell, "corners"), field(cell, "id")

	m := runtime.New(grid)
	m.Append(weights, protoreflect.ValueOfFloat64(1)) // 0x3ff0000000000000
	c := m.AppendMessage(cells)
	c.Append(values, protoreflect.ValueOfFloat64(2))  // 0x4000000000000000
	c.Append(corners, protoreflect.ValueOfFloat32(3)) // 0x40400000
	c.Set(id, protoreflect.ValueOfInt32(7))

	var want []byte
	le := binary.LittleEndian
	want = le.AppendUint64(want, 0x3ff0000000000000) // weights[0]
	want = append(want, make([]byte, 16)...)         // weights[1..2]
	want = le.AppendUint32(want, 1)                  // cells[0].values: 1 element
	want = le.AppendUint64(want, 0x4000000000000000)
	want = le.AppendUint32(want, 0x40400000) // cells[0].corners[0]
	want = le.AppendUint32(want, 0)          // cells[0].corners[1]
	want = le.AppendUint32(want, 7)          // cells[0].id
	want = le.AppendUint32(want, 0)          // cells[1]: no values
	want = append(want, make([]byte, 8)...)  // cells[1].corners
	want = le.AppendUint32(want, 0)          // cells[1].id

	got, err := ros.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Marshal:\n got %x\nwant %x", got, want)
	}
	back := runtime.New(grid)
	if err := ros.Unmarshal(got, back); err != nil {
		t.Fatal(err)
	}
	again, err := ros.Append(nil, back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, want) {
		t.Fatalf("Marshal after Unmarshal:\n got %x\nwant %x", again, want)
	}
}

// TestMarshalRepeatedMessageElements checks Append, Size and Unmarshal for
// repeated and fixed-array fields of messages and of times whose lengths
// end inside and at the edges of the chunks of a v3 message vector (2, 4,
// 8, 16, ... elements), in v3 and v2, against the ROS1 bytes written out
// by hand: every element is distinct, so one skipped, written twice or out
// of order changes the bytes. In v3, Unmarshal into one message used for
// every length, the longest first, must start from the root's creation
// image (Clear's reset, docs/format.md): its payload is then as long as
// that of an Unmarshal into a new message, where a field-by-field Clear
// would leave the longest one's blocks behind.
func TestMarshalRepeatedMessageElements(t *testing.T) {
	files := compileProtos(t, map[string]string{"walk.proto": `
syntax = "proto3";
package walk;
import "phaser/options.proto";
import "google/protobuf/timestamp.proto";
message Cell {
  string name = 1;
  int32 id = 2;
}
message Row {
  repeated Cell cells = 1;
  repeated Cell fixed = 2 [(phaser.array_size) = 40];
  repeated google.protobuf.Timestamp stamps = 3;
  repeated google.protobuf.Timestamp fixed_stamps = 4 [(phaser.array_size) = 40];
}
`}, "walk.proto")
	row, cell := typeIn(t, files, "walk.Row"), typeIn(t, files, "walk.Cell")
	cells, fixed := field(row, "cells"), field(row, "fixed")
	stamps, fixedStamps := field(row, "stamps"), field(row, "fixed_stamps")
	name, id := field(cell, "name"), field(cell, "id")
	seconds, nanos := stamps.Message().Fields().ByName("seconds"), stamps.Message().Fields().ByName("nanos")
	le := binary.LittleEndian

	for _, v := range []payloadbuffer.Version{payloadbuffer.V3, payloadbuffer.V2} {
		newIn := func() runtime.Msg { // fixed buffers: an owned one grows as it went
			m, err := runtime.NewIn(row, make([]byte, 32<<10), runtime.Options{Version: v})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		used := newIn()
		for _, n := range []int{40, 0, 1, 2, 3, 5, 6, 7, 13, 14, 15, 29, 30, 31} {
			m := runtime.New(row, runtime.Options{Version: v})
			var wantCells, wantStamps []byte
			for i := range n {
				s := fmt.Sprint("cell ", i)
				for _, f := range []protoreflect.FieldDescriptor{cells, fixed} {
					c := m.AppendMessage(f)
					c.Set(name, protoreflect.ValueOfString(s))
					c.Set(id, protoreflect.ValueOfInt32(int32(i+1)))
				}
				wantCells = le.AppendUint32(wantCells, uint32(len(s)))
				wantCells = append(wantCells, s...)
				wantCells = le.AppendUint32(wantCells, uint32(i+1))
				for _, f := range []protoreflect.FieldDescriptor{stamps, fixedStamps} {
					e := m.AppendMessage(f)
					e.Set(seconds, protoreflect.ValueOfInt64(int64(1000+i)))
					e.Set(nanos, protoreflect.ValueOfInt32(int32(i)))
				}
				wantStamps = le.AppendUint32(wantStamps, uint32(1000+i))
				wantStamps = le.AppendUint32(wantStamps, uint32(i))
			}
			pad := make([]byte, 8*(40-n)) // default cells (empty name, id 0) and times
			var want []byte
			want = le.AppendUint32(want, uint32(n))
			want = append(want, wantCells...)
			want = append(want, wantCells...)
			want = append(want, pad...)
			want = le.AppendUint32(want, uint32(n))
			want = append(want, wantStamps...)
			want = append(want, wantStamps...)
			want = append(want, pad...)

			got, err := ros.Append(nil, m)
			if err != nil {
				t.Fatalf("v%d, %d elements: %v", v, n, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("v%d, %d elements: Append\n got %x\nwant %x", v, n, got, want)
			}
			if size, err := ros.Size(m); err != nil || size != len(want) {
				t.Fatalf("v%d, %d elements: Size = %d, %v; want %d", v, n, size, err, len(want))
			}
			back := newIn()
			if err := ros.Unmarshal(got, back); err != nil {
				t.Fatalf("v%d, %d elements: Unmarshal: %v", v, n, err)
			}
			if again, err := ros.Append(nil, back); err != nil || !bytes.Equal(again, want) {
				t.Fatalf("v%d, %d elements: Append after Unmarshal: %v\n got %x\nwant %x", v, n, err, again, want)
			}
			if err := ros.Unmarshal(got, used); err != nil {
				t.Fatalf("v%d, %d elements: Unmarshal into a used message: %v", v, n, err)
			}
			if v == payloadbuffer.V3 && len(used.Bytes()) != len(back.Bytes()) {
				t.Fatalf("v%d, %d elements: Unmarshal into a used root left %d payload bytes, into a new one %d", v, n, len(used.Bytes()), len(back.Bytes()))
			}
		}
	}
}

// batchSchema has every kind of repeated message field ROS1 reads as a
// batch: a variable array of messages with strings and arrays of their
// own, a fixed array of them, time[] and duration[].
const batchSchema = `
syntax = "proto3";
package batch;
import "phaser/options.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
message Item {
  string name = 1;
  uint32 id = 2;
  repeated float xs = 3;
}
message Batch {
  string title = 1;
  repeated Item items = 2;
  repeated Item fixed = 3 [(phaser.array_size) = 3];
  repeated google.protobuf.Timestamp stamps = 4;
  repeated google.protobuf.Duration spans = 5;
  uint32 tail = 6;
}
`

// batchROS writes the ROS1 bytes of a Batch by hand: n items named name(i)
// with i%3 floats each, the 3 fixed items, nt stamps and nt/2 spans.
func batchROS(n, nt int, name func(int) string) []byte {
	var w ros.Writer
	item := func(i int) {
		_ = w.String([]byte(name(i)))
		w.Uint32(uint32(i * 7))
		w.Uint32(uint32(i % 3))
		for k := range i % 3 {
			w.Float32(float32(i) + float32(k)/4)
		}
	}
	_ = w.String([]byte("a batch"))
	w.Uint32(uint32(n))
	for i := range n {
		item(i)
	}
	for i := range 3 {
		item(1000 + i)
	}
	w.Uint32(uint32(nt))
	for i := range nt {
		w.Uint32(uint32(1_700_000_000 + i))
		w.Uint32(uint32(i * 1000))
	}
	w.Uint32(uint32(nt / 2))
	for i := range nt / 2 {
		w.Uint32(uint32(int32(-i)))
		w.Uint32(uint32(i))
	}
	w.Uint32(0xC0FFEE)
	return w.Buf
}

func shortName(i int) string { return fmt.Sprint("n", i) }

// TestUnmarshalROSLongArrays reads long arrays of messages, times and
// durations (lengths past several chunks of a v3 message vector) in both
// formats, owned and fixed: the message writes back the hand-written
// bytes, and in format v3 each array takes one block of exactly its
// elements, as Allocate makes it, not doubling chunks.
func TestUnmarshalROSLongArrays(t *testing.T) {
	files := compileProtos(t, map[string]string{"batch.proto": batchSchema}, "batch.proto")
	typ := typeIn(t, files, "batch.Batch")
	for _, n := range []int{0, 1, 2, 3, 7, 2049} {
		data := batchROS(n, n/2+1, shortName)
		for _, v := range []payloadbuffer.Version{payloadbuffer.V3, payloadbuffer.V2} {
			for _, fixed := range []bool{false, true} {
				name := fmt.Sprintf("n=%d/%s/fixed=%v", n, v, fixed)
				m := runtime.New(typ, runtime.Options{Version: v})
				if fixed {
					var err error
					if m, err = runtime.NewIn(typ, make([]byte, 1<<20), runtime.Options{Version: v}); err != nil {
						t.Fatal(err)
					}
				}
				if err := ros.Unmarshal(data, m); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				back, err := ros.Marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(back, data) {
					t.Fatalf("%s: Marshal after Unmarshal differs from the input", name)
				}
				if v != payloadbuffer.V3 || fixed || n < 1000 {
					continue
				}
				// The same content built with Allocate, field by field.
				ref := runtime.New(typ)
				if err := ros.Unmarshal(data, ref); err != nil {
					t.Fatal(err)
				}
				items, stamps := field(typ, "items"), field(typ, "stamps")
				if got, want := m.Len(items), n; got != want {
					t.Fatalf("%s: %d items, want %d", name, got, want)
				}
				size := len(m.Bytes())
				built := runtime.New(typ)
				built.Set(field(typ, "title"), protoreflect.ValueOfString("a batch"))
				built.Allocate(items, n)
				built.Allocate(stamps, n/2+1)
				built.Allocate(field(typ, "spans"), (n/2+1)/2)
				built.Allocate(field(typ, "fixed"), 3)
				ifields := items.Message().Fields()
				for i := range n {
					e := built.IndexMessage(items, i)
					e.Set(ifields.ByName("name"), protoreflect.ValueOfString(shortName(i)))
					e.Set(ifields.ByName("id"), protoreflect.ValueOfUint32(uint32(i*7)))
					for k := range i % 3 {
						e.Append(ifields.ByName("xs"), protoreflect.ValueOfFloat32(float32(i)+float32(k)/4))
					}
				}
				if limit := len(built.Bytes()) + 4096; size > limit {
					t.Fatalf("%s: the payload takes %d bytes, more than %d (Allocate's room for the arrays and 4 KiB)", name, size, limit)
				}
			}
		}
	}
}

// TestUnmarshalROSHostileCounts gives element counts the input cannot hold:
// a clear error wrapping ErrInvalid, before any allocation for them (the
// payload stays small), never a panic; and a count that the minimal element
// size allows but the elements do not fill.
func TestUnmarshalROSHostileCounts(t *testing.T) {
	files := compileProtos(t, map[string]string{"batch.proto": batchSchema}, "batch.proto")
	typ := typeIn(t, files, "batch.Batch")
	good := batchROS(4, 3, shortName)
	countAt := 4 + len("a batch") // the items count
	stampsAt := len(batchROS(4, 0, shortName)) - 12
	var cases [][]byte
	for _, c := range []uint32{0xFFFFFFFF, 1 << 30, 1 << 20, uint32(len(good)-countAt-4)/12 + 1, uint32(len(good)-countAt-4) / 12} {
		cases = append(cases, withCount(good, countAt, c))
	}
	short := batchROS(4, 0, shortName)
	for _, c := range []uint32{0xFFFFFFFF, 1 << 29, uint32(len(short)-stampsAt-4)/8 + 1} {
		cases = append(cases, withCount(short, stampsAt, c))
	}
	for i, data := range cases {
		for _, v := range []payloadbuffer.Version{payloadbuffer.V3, payloadbuffer.V2} {
			owned := runtime.New(typ, runtime.Options{Version: v})
			fixed, err := runtime.NewIn(typ, make([]byte, 4096), runtime.Options{Version: v})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range []runtime.Msg{owned, fixed} {
				err := ros.Unmarshal(data, m)
				if !errors.Is(err, ros.ErrInvalid) {
					t.Fatalf("case %d (%s): error %v, want ErrInvalid", i, v, err)
				}
				if n := len(m.Bytes()); n > 1<<16 {
					t.Fatalf("case %d (%s): a %d-byte input made a %d-byte payload", i, v, len(data), n)
				}
			}
		}
	}
}

func withCount(b []byte, at int, c uint32) []byte {
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint32(b[at:], c)
	return b
}

// TestUnmarshalROSFullMidBatch reads a Batch into fixed buffers of every
// size (8-byte steps) from too small to enough: a buffer that fills up in
// the middle of an array (the elements made, their strings not) fails with
// ErrFull, writes nothing past its end and keeps what was read before, as
// when each element is added before it is read: the array holds the
// elements read and the one that failed, not empty ones after it.
func TestUnmarshalROSFullMidBatch(t *testing.T) {
	files := compileProtos(t, map[string]string{"batch.proto": batchSchema}, "batch.proto")
	typ := typeIn(t, files, "batch.Batch")
	items := field(typ, "items")
	iname, iid := items.Message().Fields().ByName("name"), items.Message().Fields().ByName("id")
	long := func(i int) string { return fmt.Sprintf("item %d %s", i, bytes.Repeat([]byte{'x'}, 24+i)) }
	const n = 40
	data := batchROS(n, 9, long)
	for _, v := range []payloadbuffer.Version{payloadbuffer.V3, payloadbuffer.V2} {
		for _, tu := range []payloadbuffer.Tuning{payloadbuffer.Performance, payloadbuffer.Size} {
			opts := runtime.Options{Version: v, Tuning: tu}
			midBatch := 0
			for size := 0; ; size += 8 {
				mem := bytes.Repeat([]byte{0xA5}, size+64)
				clear(mem[:size])
				m, err := runtime.NewIn(typ, mem[:size:size], opts)
				if err != nil {
					continue
				}
				err = ros.Unmarshal(data, m)
				for i, b := range mem[size:] {
					if b != 0xA5 {
						t.Fatalf("%s/%s size %d: byte %d past the buffer written", v, tu, size, size+i)
					}
				}
				if err == nil {
					back, err := ros.Marshal(m)
					if err != nil || !bytes.Equal(back, data) {
						t.Fatalf("%s/%s size %d: read back differs (%v)", v, tu, size, err)
					}
					t.Logf("%s/%s: fits from %d bytes; %d sizes failed inside the items", v, tu, size, midBatch)
					break
				}
				if !errors.Is(err, runtime.ErrFull) {
					t.Fatalf("%s/%s size %d: %v, want ErrFull", v, tu, size, err)
				}
				got := m.Len(items)
				if got > n {
					t.Fatalf("%s/%s size %d: %d items of %d", v, tu, size, got, n)
				}
				if got > 0 && got < n {
					midBatch++
				}
				for i := range got - 1 { // the last one may be partial
					e := m.IndexMessage(items, i)
					if e.Get(iname).String() != long(i) || e.Get(iid).Uint() != uint64(i*7) {
						t.Fatalf("%s/%s size %d: item %d of %d reads %q %d, want %q", v, tu, size, i, got,
							e.Get(iname).String(), e.Get(iid).Uint(), long(i))
					}
				}
				if size > 1<<20 {
					t.Fatalf("%s/%s: no fit", v, tu)
				}
			}
			if midBatch == 0 {
				t.Errorf("%s/%s: no buffer size filled up inside the items", v, tu)
			}
		}
	}
}

// field returns the field of t named name.
func field(t *runtime.Type, name string) protoreflect.FieldDescriptor {
	fd := t.Descriptor().Fields().ByName(protoreflect.Name(name))
	if fd == nil {
		panic(t.Name() + " has no field " + name)
	}
	return fd
}
