package ros_test

import (
	"bytes"
	"encoding/binary"
	"testing"

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
