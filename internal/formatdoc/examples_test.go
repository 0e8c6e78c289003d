package formatdoc

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/phaser-go/phaser/examples/quickstart/quickstartphaser"
	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/internal/layout"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/ros/msgs/std_msgs/std_msgsphaser"
	"github.com/phaser-go/phaser/runtime"
)

// examples are the generators of docs/format.md's worked examples, by the
// name their markers give. Each returns the markdown between the markers.
var examples = map[string]func(t *testing.T) string{
	"layout-robot":   layoutRobot,
	"layout-shapes":  layoutShapes,
	"table-shapes":   tableShapes,
	"dense-choice":   denseChoice,
	"v2-robot":       v2Robot,
	"v3-robot":       v3Robot,
	"v2-bitmap":      v2Bitmap,
	"v3-classes":     v3Classes,
	"v3-grow":        v3Grow,
	"v3-failed":      v3Failed,
	"v3-ros-inline":  v3ROSInline,
	"v3-any":         v3Any,
	"wire-robot-pb":  wireRobotProto,
	"wire-robot-ros": wireRobotROS,
}

func fence(body string) string { return "```text\n" + body + "```\n" }

// layouts returns a layout cache for a format and frontend.
func layouts(v int, ros bool) *layout.Cache {
	return layout.NewCache(layout.Options{Version: v, ROSFrontend: ros})
}

func mustLayout(t *testing.T, c *layout.Cache, md protoreflect.MessageDescriptor) *layout.Message {
	t.Helper()
	lm, err := c.Of(md)
	if err != nil {
		t.Fatal(err)
	}
	return lm
}

// dumpPayload annotates a whole payload whose root has layout root.
func dumpPayload(t *testing.T, payload []byte, root *layout.Message, extra ...*layout.Message) string {
	t.Helper()
	a := newAnnotator(payload, append([]*layout.Message{root}, extra...)...)
	a.header()
	a.control(a.u32(20))
	a.message(a.u32(4), root, "root")
	return a.render()
}

// robotOps is the operation sequence of the Robot examples.
func robotOps(r quickstartphaser.Robot) {
	r.SetName("rover-7")
	r.SetId(7)
	r.MutablePose().SetX(1.5)
	r.BatteryCells().Append(3.5)
	r.Path().Append().SetY(2)
	r.Tags().Append("outdoor")
	r.SetDock(3)
}

func robotDesc() protoreflect.MessageDescriptor {
	return quickstartphaser.Robot{}.PhaserType().Descriptor()
}

func newRobot(t *testing.T, opts runtime.Options) quickstartphaser.Robot {
	t.Helper()
	r, err := quickstartphaser.NewRobotIn(make([]byte, 1024), opts)
	if err != nil {
		t.Fatal(err)
	}
	robotOps(r)
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	return r
}

func v2Robot(t *testing.T) string {
	r := newRobot(t, runtime.Options{Version: payloadbuffer.V2, Tuning: payloadbuffer.Size})
	return fence(dumpPayload(t, r.Bytes(), mustLayout(t, layouts(2, false), robotDesc())))
}

func v3Robot(t *testing.T) string {
	r := newRobot(t, runtime.Options{})
	return fence(dumpPayload(t, r.Bytes(), mustLayout(t, layouts(3, false), robotDesc())))
}

func v3ROSInline(t *testing.T) string {
	h, err := std_msgsphaser.NewHeaderIn(make([]byte, 512), runtime.Options{Tuning: payloadbuffer.Size})
	if err != nil {
		t.Fatal(err)
	}
	h.SetSeq(7)
	h.MutableStamp().SetSeconds(1700000000)
	h.SetFrameId("map")
	if h.Err() != nil {
		t.Fatal(h.Err())
	}
	md := h.PhaserType().Descriptor()
	return fence(dumpPayload(t, h.Bytes(), mustLayout(t, layouts(3, true), md)))
}

// testSchema compiles testdata/formatdoc.proto.
func testSchema(t *testing.T) protoreflect.FileDescriptor {
	t.Helper()
	c := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{ImportPaths: []string{"testdata"}}),
	}
	files, err := c.Compile(context.Background(), "formatdoc.proto")
	if err != nil {
		t.Fatal(err)
	}
	return files[0]
}

func message(t *testing.T, name protoreflect.Name) protoreflect.MessageDescriptor {
	t.Helper()
	md := testSchema(t).Messages().ByName(name)
	if md == nil {
		t.Fatalf("formatdoc.proto has no %s", name)
	}
	return md
}

func typeOf(t *testing.T, md protoreflect.MessageDescriptor) *impl.Type {
	t.Helper()
	rt, err := impl.TypeOf(md)
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

func v3Any(t *testing.T) string {
	boxed, leaf := message(t, "Boxed"), message(t, "Leaf")
	bt, lt := typeOf(t, boxed), typeOf(t, leaf)
	m, err := impl.NewIn(bt, make([]byte, 512), impl.Options{Tuning: payloadbuffer.Size})
	if err != nil {
		t.Fatal(err)
	}
	body := bt.FieldByName("body")
	v := impl.AnyOf(m.MutableMessage(body.Field, body.Type)).Mutable(lt)
	v.Set32(lt.FieldByName("a").Field, 5)
	if m.Err() != nil {
		t.Fatal(m.Err())
	}
	c := layouts(3, false)
	return fence(dumpPayload(t, m.PayloadBytes(), mustLayout(t, c, boxed), mustLayout(t, c, leaf)))
}

// v2Bitmap: the v2 small-block allocator serving one 12-byte request, then
// resizing it in its class.
func v2Bitmap(t *testing.T) string {
	b, err := payloadbuffer.NewFixed(make([]byte, 1024), payloadbuffer.Options{Version: payloadbuffer.V2})
	if err != nil {
		t.Fatal(err)
	}
	p := b.Allocate(12, payloadbuffer.Zero|payloadbuffer.Small)
	copy(b.Slice(p, 5), "hello")
	if p = b.Realloc(p, 10, payloadbuffer.Zero|payloadbuffer.Small); p == 0 {
		t.Fatal("realloc failed")
	}
	a := newAnnotator(b.Bytes())
	a.header()
	a.title(p, "the 12-byte request, resized to 10")
	a.add(p, 5, "\"hello\"")
	return fence(a.render())
}

// v3Classes: size-class blocks, a free one on its list, a regular block.
func v3Classes(t *testing.T) string {
	b, err := payloadbuffer.NewFixed(make([]byte, 1024), payloadbuffer.Options{Version: payloadbuffer.V3})
	if err != nil {
		t.Fatal(err)
	}
	x := b.Allocate(12, payloadbuffer.Zero|payloadbuffer.Small)
	y := b.Allocate(40, payloadbuffer.Zero|payloadbuffer.Small)
	z := b.Allocate(200, payloadbuffer.Zero)
	copy(b.Slice(x, 3), "xyz")
	b.Free(x)
	a := newAnnotator(b.Bytes())
	a.header()
	a.title(y, "a 40-byte request (class 64)")
	a.title(z, "a 200-byte request (regular)")
	return fence(a.render())
}

// v3Grow: an owned buffer of 64 bytes that grows for a 40-byte request.
func v3Grow(t *testing.T) string {
	b := payloadbuffer.New(64, payloadbuffer.Options{Version: payloadbuffer.V3, Tuning: payloadbuffer.Size})
	p := b.Allocate(40, payloadbuffer.Zero)
	if p == 0 || b.Len() != 128 {
		t.Fatalf("allocate: %d, buffer %d bytes", p, b.Len())
	}
	a := newAnnotator(b.Bytes())
	a.header()
	a.title(p, "the 40-byte request")
	return fence(a.render())
}

// v3Failed: the header of a fixed v3 buffer after an allocation failed.
func v3Failed(t *testing.T) string {
	r, err := quickstartphaser.NewRobotIn(make([]byte, 400), runtime.Options{Tuning: payloadbuffer.Size})
	if err != nil {
		t.Fatal(err)
	}
	r.SetName("rover-7")
	r.SetName(strings.Repeat("x", 500)) // does not fit
	if !r.Failed() {
		t.Fatal("no failure")
	}
	a := newAnnotator(r.Bytes())
	a.header()
	a.spans = a.spans[:10:10]
	var rows []string
	for _, s := range a.spans {
		rows = append(rows, fmt.Sprintf("%04x  %-23s  %s", s.off, fmt.Sprintf("% x", a.mem[s.off:s.off+s.n]), s.label))
	}
	return fence(strings.Join(rows, "\n") + "\n")
}

// layoutRobot: the Robot's layout in both formats and frontends.
func layoutRobot(t *testing.T) string {
	md := robotDesc()
	pb2, pb3, ros3 := mustLayout(t, layouts(2, false), md), mustLayout(t, layouts(3, false), md), mustLayout(t, layouts(3, true), md)
	var b strings.Builder
	fieldTable(&b, pb2, ros3)
	fmt.Fprintf(&b, "\nPresence mask %d bytes (header %d); unions from %d; BinarySize %d in format 2 (fixed portion %d + the header again), %d in format 3; %d with the ROS frontend in format 3 (mask %d bytes).\n",
		pb2.MaskSize, pb2.HeaderSize, pb2.Unions[0].Offset, pb2.BinarySize, pb2.FixedSize, pb3.BinarySize, ros3.BinarySize, ros3.MaskSize)
	return b.String()
}

func layoutShapes(t *testing.T) string {
	md := message(t, "Shapes")
	pb2, ros3 := mustLayout(t, layouts(2, false), md), mustLayout(t, layouts(3, true), md)
	var b strings.Builder
	fieldTable(&b, pb2, ros3)
	var us []string
	for _, u := range pb2.Unions {
		us = append(us, fmt.Sprintf("`%s` at %d (%d bytes)", u.Desc.Name(), u.Offset, u.Size))
	}
	fmt.Fprintf(&b, "\nUnions: %s. BinarySize %d in format 2, %d in format 3 (%d with the ROS frontend, `extra` inline).\n",
		strings.Join(us, ", "), pb2.BinarySize, pb2.FixedSize, ros3.BinarySize)
	e := pb2.FieldByName("tally").Message
	var fs []string
	for _, f := range e.Fields {
		fs = append(fs, fmt.Sprintf("`%s` (%s) at %d, id %d", f.Name, f.Kind, f.Offset, f.ID))
	}
	fmt.Fprintf(&b, "The map's entry type `%s`: %s; mask %d bytes, BinarySize %d in format 2, %d in format 3.\n",
		e.FullName, strings.Join(fs, ", "), e.MaskSize, e.BinarySize, e.FixedSize)
	return b.String()
}

// fieldTable writes a markdown table of the fields of a message in the
// protobuf frontend's layout (the same offsets in both formats) and the ROS
// frontend's format-3 layout.
func fieldTable(b *strings.Builder, pb, ros3 *layout.Message) {
	b.WriteString("| field | number | kind | slot | offset | id | offset, v3 ROS frontend | id |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for i, f := range pb.Fields {
		r := ros3.Fields[i]
		fmt.Fprintf(b, "| %s | %d | %s | %s | %d | %d | %d | %s |\n",
			f.Name, f.Number, kindText(f), slotText(f), f.Offset, f.ID, r.Offset, idText(r))
	}
}

func kindText(f *layout.Field) string {
	k := f.Kind.String()
	if f.Message != nil && f.Message.IsAny {
		k = "Any"
	}
	if f.Desc.IsMap() {
		return "map (entry message)"
	}
	if f.Repeated {
		k = "repeated " + k
	}
	if f.Union != nil {
		if f.Union.Desc.IsSynthetic() {
			k = "optional " + k
		} else {
			k += " in oneof " + string(f.Union.Desc.Name())
		}
	}
	return k
}

func slotText(f *layout.Field) string {
	if f.Union != nil {
		return fmt.Sprintf("union of %d", f.Union.Size)
	}
	return fmt.Sprint(f.SlotSize)
}

func idText(f *layout.Field) string {
	if f.Inline {
		return "0xff (inline)"
	}
	return fmt.Sprint(f.ID)
}

// tableShapes: the hybrid table of Shapes, annotated.
func tableShapes(t *testing.T) string {
	lm := mustLayout(t, layouts(2, false), message(t, "Shapes"))
	a := newBytes(lm.Table)
	a.tableAt(0, lm.FullName)
	return fence(a.rows(0, uint32(len(lm.Table))))
}

// denseChoice: the dense range the generator picks for sets of field
// numbers, from tables of generated layouts.
func denseChoice(t *testing.T) string {
	sets := [][]int32{{1, 2, 3, 4}, {1, 3}, {1, 2, 3, 5, 8, 13, 21}, {2, 100, 101, 102, 103, 5000}, {7, 1000, 100000}}
	var b strings.Builder
	b.WriteString("| field numbers | dense_base | dense_span | sparse | table bytes |\n")
	b.WriteString("| --- | --- | --- | --- | --- |\n")
	for _, nums := range sets {
		table := tableOfNumbers(t, nums)
		base, span, count := le.Uint32(table[4:]), le.Uint32(table[8:]), le.Uint32(table[12:])
		var sparse []string
		for i := range count {
			sparse = append(sparse, fmt.Sprint(le.Uint32(table[16+4*span+8*i:])))
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %d |\n", join(nums), base, span, strings.Join(sparse, ", "), len(table))
	}
	return b.String()
}

func join(nums []int32) string {
	var s []string
	for _, n := range nums {
		s = append(s, fmt.Sprint(n))
	}
	return strings.Join(s, ", ")
}

// tableOfNumbers returns the table of a message of int32 fields numbered
// nums.
func tableOfNumbers(t *testing.T, nums []int32) []byte {
	t.Helper()
	msg := &descriptorpb.DescriptorProto{Name: proto.String("M")}
	for _, n := range nums {
		msg.Field = append(msg.Field, &descriptorpb.FieldDescriptorProto{
			Name:   proto.String(fmt.Sprintf("f%d", n)),
			Number: proto.Int32(n),
			Type:   descriptorpb.FieldDescriptorProto_TYPE_INT32.Enum(),
			Label:  descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
		})
	}
	fd, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{
		Name:        proto.String(fmt.Sprintf("dense%v.proto", nums)),
		Package:     proto.String("dense"),
		Syntax:      proto.String("proto3"),
		MessageType: []*descriptorpb.DescriptorProto{msg},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return mustLayout(t, layouts(2, false), fd.Messages().Get(0)).Table
}

// wireRobotProto: the protobuf bytes of the Robot example, record by record.
func wireRobotProto(t *testing.T) string {
	r := newRobot(t, runtime.Options{})
	b, err := r.MarshalProto()
	if err != nil {
		t.Fatal(err)
	}
	md := robotDesc()
	a := newBytes(b)
	for at := 0; at < len(b); {
		num, typ, n := protowire.ConsumeTag(b[at:])
		m := protowire.ConsumeFieldValue(num, typ, b[at+n:])
		if n < 0 || m < 0 {
			t.Fatalf("bad protobuf at %d", at)
		}
		fd := md.Fields().ByNumber(num)
		what := fmt.Sprintf("field %d (%s), wire type %d", num, fd.Name(), typ)
		switch typ {
		case protowire.BytesType:
			v, _ := protowire.ConsumeBytes(b[at+n:])
			what += fmt.Sprintf(", %d bytes", len(v))
			if fd.Kind() == protoreflect.StringKind {
				what += " " + fmt.Sprintf("%q", v)
			}
		case protowire.VarintType:
			v, _ := protowire.ConsumeVarint(b[at+n:])
			what += fmt.Sprintf(", %d", v)
		}
		a.add(uint32(at), uint32(n+m), "%s", what)
		at += n + m
	}
	return fence(a.rows(0, uint32(len(b))))
}

// wireRobotROS: the ROS1 bytes of the Robot example, field by field.
func wireRobotROS(t *testing.T) string {
	r := newRobot(t, runtime.Options{})
	b, err := r.MarshalROS()
	if err != nil {
		t.Fatal(err)
	}
	a := newBytes(b)
	at := uint32(0)
	put := func(n uint32, format string, args ...any) {
		a.add(at, n, format, args...)
		at += n
	}
	str := func(name string) {
		n := le.Uint32(b[at:])
		put(4, "%s: length %d", name, n)
		put(n, "%q", b[at:at+n])
	}
	str("name")
	put(4, "id (uint32) = %d", le.Uint32(b[at:]))
	put(4, "mode (int32) = %d", int32(le.Uint32(b[at:])))
	f64 := func(name string) {
		put(8, "%s (float64) = %g", name, math.Float64frombits(le.Uint64(b[at:])))
	}
	f64("pose.x")
	f64("pose.y")
	f64("pose.theta")
	put(8, "stamp (time): sec %d, nsec %d (absent: zero)", le.Uint32(b[at:]), le.Uint32(b[at+4:]))
	n := le.Uint32(b[at:])
	put(4, "battery_cells: %s", elements(n))
	for i := range n {
		put(4, "battery_cells[%d] (float32) = %g", i, math.Float32frombits(le.Uint32(b[at:])))
	}
	n = le.Uint32(b[at:])
	put(4, "path: %s", elements(n))
	for i := range n {
		f64(fmt.Sprintf("path[%d].x", i))
		f64(fmt.Sprintf("path[%d].y", i))
		f64(fmt.Sprintf("path[%d].theta", i))
	}
	n = le.Uint32(b[at:])
	put(4, "tags: %s", elements(n))
	for i := range n {
		str(fmt.Sprintf("tags[%d]", i))
	}
	put(4, "task: discriminator %d (dock)", le.Uint32(b[at:]))
	put(4, "dock (uint32) = %d", le.Uint32(b[at:]))
	if at != uint32(len(b)) {
		t.Fatalf("ROS bytes: %d of %d described", at, len(b))
	}
	return fence(a.rows(0, uint32(len(b))))
}

// modRoot is the module root (this package is internal/formatdoc).
var modRoot = filepath.Join("..", "..")
