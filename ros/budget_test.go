package ros_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/runtime"
)

const budgetProto = `
syntax = "proto3";
package budget;
message Strings { repeated string names = 1; }
message Leaf { string s = 1; }
message L3 { repeated Leaf a = 1; }
message L2 { repeated L3 a = 1; }
message L1 { repeated L2 a = 1; }
message Root { repeated L1 a = 1; }
`

// shareElems makes elements 1.. of repeated field fd of m (a message in
// payload b, which m's offsets address) point where element 0 does: the
// elements of a string or (format v2) message field are offsets.
func shareElems(t *testing.T, b []byte, m runtime.Msg, fd protoreflect.FieldDescriptor) {
	t.Helper()
	d := impl.Dynamic(m)
	f := d.Type().FieldByNumber(uint32(fd.Number())).Field
	le := binary.LittleEndian
	first := le.Uint32(b[d.Msg().Elem(f, 0, 4):])
	for i := 1; i < m.Len(fd); i++ {
		le.PutUint32(b[d.Msg().Elem(f, i, 4):], first)
	}
}

// checkBudget checks that every ROS1 encoder of the payload b of type typ
// fails with ErrSharedOffsets, having written no more than a small
// multiple of the input.
func checkBudget(t *testing.T, b []byte, typ *runtime.Type) {
	t.Helper()
	m, err := runtime.Read(typ, b)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ros.Marshal(m)
	if !errors.Is(err, ros.ErrSharedOffsets) {
		t.Errorf("Marshal: %d bytes from %d, %v; want ErrSharedOffsets", len(out), len(b), err)
	}
	if n, err := ros.Size(m); !errors.Is(err, ros.ErrSharedOffsets) {
		t.Errorf("Size: %d, %v; want ErrSharedOffsets", n, err)
	}
	out, err = ros.Append(nil, m)
	if !errors.Is(err, ros.ErrSharedOffsets) || len(out) > 4*len(b)+8192 {
		t.Errorf("Append: %d bytes from %d, %v; want ErrSharedOffsets", len(out), len(b), err)
	}
	out, err = ros.PhaserToROS(nil, b, typ)
	if !errors.Is(err, ros.ErrSharedOffsets) || len(out) > 4*len(b)+8192 {
		t.Errorf("PhaserToROS: %d bytes from %d, %v; want ErrSharedOffsets", len(out), len(b), err)
	}
	if _, err := ros.ConvertToROS(nil, b, typ); !errors.Is(err, ros.ErrSharedOffsets) {
		t.Errorf("ConvertToROS: %v; want ErrSharedOffsets", err)
	}
}

// TestBudgetSharedString reproduces issue 16's finding: a repeated string
// whose 700 elements all point at one 12 KB string made MarshalROS and
// PhaserToROS write 8 MB from a 15 KB payload. Every element read is now
// charged against the payload's length.
func TestBudgetSharedString(t *testing.T) {
	files := compileProtos(t, map[string]string{"budget.proto": budgetProto}, "budget.proto")
	typ := typeIn(t, files, "budget.Strings")
	names := field(typ, "names")
	for _, v := range []payloadbuffer.Version{payloadbuffer.V3, payloadbuffer.V2} {
		m := runtime.New(typ, runtime.Options{Version: v})
		m.Append(names, protoreflect.ValueOfString(strings.Repeat("x", 12<<10)))
		for range 699 {
			m.Append(names, protoreflect.ValueOfString(""))
		}
		// As built: every string once, well within the budget.
		want, err := ros.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != 4+4*700+12<<10 {
			t.Fatalf("Marshal: %d bytes", len(want))
		}
		b := bytes.Clone(m.Bytes())
		shareElems(t, b, m, names)
		checkBudget(t, b, typ)
	}
}

// TestBudgetDAG checks a payload whose offsets form a DAG: four levels of
// 16 elements (format v2, whose elements are offsets), each level's
// elements all the first one, so that 16^4 leaves of 64 bytes are
// reached from a few KB.
func TestBudgetDAG(t *testing.T) {
	files := compileProtos(t, map[string]string{"budget.proto": budgetProto}, "budget.proto")
	root := typeIn(t, files, "budget.Root")
	m := runtime.New(root, runtime.Options{Version: payloadbuffer.V2})
	var lists []runtime.Msg // the holder of each level's list
	holder := m
	for level := 0; level < 4; level++ {
		fd := holder.Type().Descriptor().Fields().ByName("a")
		var first runtime.Msg
		for i := range 16 {
			e := holder.AppendMessage(fd)
			if i == 0 {
				first = e
			}
		}
		lists = append(lists, holder)
		holder = first
	}
	holder.Set(holder.Type().Descriptor().Fields().ByName("s"), protoreflect.ValueOfString(strings.Repeat("y", 64)))
	if _, err := ros.Marshal(m); err != nil {
		t.Fatal(err)
	}
	b := bytes.Clone(m.Bytes())
	for _, l := range lists {
		shareElems(t, b, l, l.Type().Descriptor().Fields().ByName("a"))
	}
	t.Logf("payload: %d bytes", len(b))
	checkBudget(t, b, root)
}
