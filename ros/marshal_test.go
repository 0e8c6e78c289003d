package ros_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"

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
	weights, cells := grid.FieldByName("weights"), grid.FieldByName("cells")
	values, corners, id := cell.FieldByName("values"), cell.FieldByName("corners"), cell.FieldByName("id")

	m := runtime.New(grid)
	m.Push64(weights.Field, 0x3ff0000000000000) // 1.0
	c := m.AddMessage(cells.Field, cell)
	c.Push64(values.Field, 0x4000000000000000) // 2.0
	c.Push32(corners.Field, 0x40400000)        // 3.0f
	c.Set32(id.Field, 7)

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

	got, err := ros.Marshal(m, grid)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Marshal:\n got %x\nwant %x", got, want)
	}
	back := runtime.New(grid)
	if err := ros.Unmarshal(got, back, grid); err != nil {
		t.Fatal(err)
	}
	again, err := ros.Append(nil, back, grid)
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
	cells, fixed := row.FieldByName("cells"), row.FieldByName("fixed")
	stamps, fixedStamps := row.FieldByName("stamps"), row.FieldByName("fixed_stamps")
	name, id := cell.FieldByName("name"), cell.FieldByName("id")
	ts := stamps.Type
	seconds, nanos := ts.FieldByName("seconds"), ts.FieldByName("nanos")
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
				for _, f := range []*runtime.FieldInfo{cells, fixed} {
					c := m.AddMessage(f.Field, cell)
					c.SetString(name.Field, s)
					c.Set32(id.Field, uint32(i+1))
				}
				wantCells = le.AppendUint32(wantCells, uint32(len(s)))
				wantCells = append(wantCells, s...)
				wantCells = le.AppendUint32(wantCells, uint32(i+1))
				for _, f := range []*runtime.FieldInfo{stamps, fixedStamps} {
					e := m.AddMessage(f.Field, ts)
					e.Set64(seconds.Field, uint64(1000+i))
					e.Set32(nanos.Field, uint32(i))
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

			got, err := ros.Append(nil, m, row)
			if err != nil {
				t.Fatalf("v%d, %d elements: %v", v, n, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("v%d, %d elements: Append\n got %x\nwant %x", v, n, got, want)
			}
			if size, err := ros.Size(m, row); err != nil || size != len(want) {
				t.Fatalf("v%d, %d elements: Size = %d, %v; want %d", v, n, size, err, len(want))
			}
			back := newIn()
			if err := ros.Unmarshal(got, back, row); err != nil {
				t.Fatalf("v%d, %d elements: Unmarshal: %v", v, n, err)
			}
			if again, err := ros.Append(nil, back, row); err != nil || !bytes.Equal(again, want) {
				t.Fatalf("v%d, %d elements: Append after Unmarshal: %v\n got %x\nwant %x", v, n, err, again, want)
			}
			if err := ros.Unmarshal(got, used, row); err != nil {
				t.Fatalf("v%d, %d elements: Unmarshal into a used message: %v", v, n, err)
			}
			if v == payloadbuffer.V3 && len(used.PayloadBytes()) != len(back.PayloadBytes()) {
				t.Fatalf("v%d, %d elements: Unmarshal into a used root left %d payload bytes, into a new one %d", v, n, len(used.PayloadBytes()), len(back.PayloadBytes()))
			}
		}
	}
}
