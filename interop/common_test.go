package interop

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/runtime"
)

// messages are the mirrored ROS messages (ros/msgs) by protobuf name, with
// their ROS data types.
var messages = []struct {
	proto protoreflect.FullName
	ros   string
}{
	{"std_msgs.Header", "std_msgs/Header"},
	{"std_msgs.String", "std_msgs/String"},
	{"geometry_msgs.Point", "geometry_msgs/Point"},
	{"geometry_msgs.Quaternion", "geometry_msgs/Quaternion"},
	{"geometry_msgs.Pose", "geometry_msgs/Pose"},
	{"geometry_msgs.Vector3", "geometry_msgs/Vector3"},
	{"geometry_msgs.Twist", "geometry_msgs/Twist"},
	{"sensor_msgs.Imu", "sensor_msgs/Imu"},
	{"sensor_msgs.Image", "sensor_msgs/Image"},
	{"sensor_msgs.PointField", "sensor_msgs/PointField"},
	{"sensor_msgs.PointCloud2", "sensor_msgs/PointCloud2"},
	{"sensor_msgs.LaserScan", "sensor_msgs/LaserScan"},
	{"sensor_msgs.JointState", "sensor_msgs/JointState"},
}

// seeds is how many random messages each direction tries per type.
const seeds = 25

// need skips the test for a missing tool, or fails it when
// PHASER_REQUIRE_INTEROP=1.
func need(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("PHASER_REQUIRE_INTEROP") == "1" {
		t.Fatalf("%s (required: PHASER_REQUIRE_INTEROP=1)", msg)
	}
	t.Skipf("%s; skipping (set PHASER_REQUIRE_INTEROP=1 to fail instead)", msg)
}

var (
	typesOnce sync.Once
	typesErr  error
	typesSkip string
	types     map[protoreflect.FullName]*runtime.Type
)

// rosTypes compiles ros/msgs with protoc and returns the runtime types of
// the mirrored messages.
func rosTypes(t *testing.T) map[protoreflect.FullName]*runtime.Type {
	t.Helper()
	typesOnce.Do(func() { types, typesSkip, typesErr = compileTypes() })
	if typesSkip != "" {
		need(t, "%s", typesSkip)
	}
	if typesErr != nil {
		t.Fatal(typesErr)
	}
	return types
}

func compileTypes() (map[protoreflect.FullName]*runtime.Type, string, error) {
	protoc, err := exec.LookPath("protoc")
	if err != nil {
		return nil, "protoc is not installed (apt-get install protobuf-compiler)", nil
	}
	wkt := ""
	for _, dir := range []string{"/usr/include", "/usr/local/include"} {
		if _, err := os.Stat(filepath.Join(dir, "google/protobuf/timestamp.proto")); err == nil {
			wkt = dir
			break
		}
	}
	if wkt == "" {
		return nil, "the well-known .proto files are not installed (apt-get install libprotobuf-dev)", nil
	}
	out := filepath.Join(os.TempDir(), fmt.Sprintf("phaser-interop-%d.pb", os.Getpid()))
	defer os.Remove(out)
	cmd := exec.Command(protoc, "--include_imports", "--descriptor_set_out="+out,
		"-I", "../proto", "-I", wkt, "-I", "../ros/msgs",
		"std_msgs/std_msgs.proto", "geometry_msgs/geometry_msgs.proto", "sensor_msgs/sensor_msgs.proto")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, "", fmt.Errorf("protoc: %v\n%s", err, msg)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		return nil, "", err
	}
	var set descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(raw, &set); err != nil {
		return nil, "", err
	}
	files, err := protodesc.NewFiles(&set)
	if err != nil {
		return nil, "", err
	}
	m := map[protoreflect.FullName]*runtime.Type{}
	for _, msg := range messages {
		d, err := files.FindDescriptorByName(msg.proto)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", msg.proto, err)
		}
		typ, err := runtime.TypeOf(d.(protoreflect.MessageDescriptor))
		if err != nil {
			return nil, "", err
		}
		m[msg.proto] = typ
	}
	return m, "", nil
}

// rosFieldTypes returns the ROS type of each field of t, in declaration
// order, read from the first section of its definition.
func rosFieldTypes(t *runtime.Type) ([]string, error) {
	def, err := ros.Definition(t.Descriptor())
	if err != nil {
		return nil, err
	}
	own, _, _ := strings.Cut(def, "====")
	var out []string
	for line := range strings.Lines(own) {
		if strings.Contains(line, "=") {
			continue // constant
		}
		typ, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		out = append(out, typ)
	}
	if n := t.Descriptor().Fields().Len(); len(out) != n {
		return nil, fmt.Errorf("%s: %d ROS fields for %d protobuf fields", t.Name(), len(out), n)
	}
	return out, nil
}

// filler builds random ROS-valid messages in phaser payloads.
type filler struct {
	r *rand.Rand
}

func newFiller(seed uint64, name string) *filler {
	h := uint64(14695981039346656037)
	for _, c := range []byte(name) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return &filler{rand.New(rand.NewPCG(seed, h))}
}

// fill sets random values in m, leaving some fields unset.
func (f *filler) fill(m runtime.Msg) error {
	rts, err := rosFieldTypes(m.Type())
	if err != nil {
		return err
	}
	fields := m.Type().Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if f.r.IntN(6) == 0 {
			continue // unset: written as zero / default
		}
		base, n, fixed := splitArray(rts[i])
		if !fd.IsList() {
			if err := f.fillSingular(m, fd, base); err != nil {
				return err
			}
			continue
		}
		count := f.r.IntN(5)
		if fixed {
			count = n
			if f.r.IntN(4) == 0 {
				count = f.r.IntN(n) // fewer stored: zero-padded to n
			}
		}
		for range count {
			if err := f.pushElem(m, fd, base); err != nil {
				return err
			}
		}
	}
	return nil
}

// splitArray splits "float64[9]" into "float64", 9, true.
func splitArray(typ string) (base string, n int, fixed bool) {
	base, rest, ok := strings.Cut(typ, "[")
	if !ok || rest == "]" {
		return base, 0, false
	}
	n, _ = strconv.Atoi(strings.TrimSuffix(rest, "]"))
	return base, n, true
}

// value returns a random value of ROS type base for field fd.
func (f *filler) value(base string, fd protoreflect.FieldDescriptor) protoreflect.Value {
	v := f.r.Uint64()
	switch base {
	case "bool":
		v &= 1
	case "int8", "byte":
		v = uint64(int64(int8(v)))
	case "uint8", "char":
		v = uint64(uint8(v))
	case "int16":
		v = uint64(int64(int16(v)))
	case "uint16":
		v = uint64(uint16(v))
	case "int32":
		v = uint64(int64(int32(v)))
	case "uint32":
		v = uint64(uint32(v))
	case "float32":
		if fd.Kind() == protoreflect.DoubleKind {
			return protoreflect.ValueOfFloat64(float64(f.float32()))
		}
		return protoreflect.ValueOfFloat32(f.float32())
	case "float64":
		if fd.Kind() == protoreflect.FloatKind {
			return protoreflect.ValueOfFloat32(float32(f.float64()))
		}
		return protoreflect.ValueOfFloat64(f.float64())
	}
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(v != 0)
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(protoreflect.EnumNumber(int32(v)))
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(v))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(v))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(int64(v))
	}
	return protoreflect.ValueOfUint64(v)
}

// float32 returns a random float32 of any finite bit pattern or an infinity
// (no NaN: Python quiets signalling NaNs).
func (f *filler) float32() float32 {
	for {
		x := math.Float32frombits(f.r.Uint32())
		if x == x {
			return x
		}
	}
}

func (f *filler) float64() float64 {
	for {
		x := math.Float64frombits(f.r.Uint64())
		if x == x {
			return x
		}
	}
}

const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_/ .-é✓"

func (f *filler) str() string {
	runes := []rune(alphabet)
	var b strings.Builder
	for range f.r.IntN(12) {
		b.WriteRune(runes[f.r.IntN(len(runes))])
	}
	return b.String()
}

func (f *filler) blob() []byte {
	b := make([]byte, f.r.IntN(40))
	for i := range b {
		b[i] = byte(f.r.Uint32())
	}
	return b
}

func (f *filler) fillTime(m runtime.Msg) {
	fields := m.Type().Descriptor().Fields()
	m.Set(fields.ByNumber(1), protoreflect.ValueOfInt64(f.r.Int64N(1<<31)))
	m.Set(fields.ByNumber(2), protoreflect.ValueOfInt32(int32(f.r.Int64N(1e9))))
}

// fillMessage fills m, a nested message of ROS type base.
func (f *filler) fillMessage(m runtime.Msg, base string) error {
	if base == "time" || base == "duration" {
		f.fillTime(m)
		return nil
	}
	return f.fill(m)
}

func (f *filler) fillSingular(m runtime.Msg, fd protoreflect.FieldDescriptor, base string) error {
	switch fd.Kind() {
	case protoreflect.StringKind:
		m.Set(fd, protoreflect.ValueOfString(f.str()))
	case protoreflect.BytesKind:
		m.Set(fd, protoreflect.ValueOfBytes(f.blob()))
	case protoreflect.MessageKind:
		return f.fillMessage(m.Mutable(fd), base)
	default:
		m.Set(fd, f.value(base, fd))
	}
	return nil
}

func (f *filler) pushElem(m runtime.Msg, fd protoreflect.FieldDescriptor, base string) error {
	switch fd.Kind() {
	case protoreflect.StringKind:
		m.Append(fd, protoreflect.ValueOfString(f.str()))
	case protoreflect.BytesKind:
		m.Append(fd, protoreflect.ValueOfBytes(f.blob()))
	case protoreflect.MessageKind:
		return f.fillMessage(m.AppendMessage(fd), base)
	default:
		m.Append(fd, f.value(base, fd))
	}
	return nil
}

// goMessage returns the ROS bytes of random message seed of t (seed 0: an
// empty message), built in a phaser payload.
func goMessage(t *testing.T, typ *runtime.Type, seed uint64) []byte {
	t.Helper()
	m := runtime.New(typ)
	if seed != 0 {
		if err := newFiller(seed, typ.Name()).fill(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	b, err := ros.Marshal(m)
	if err != nil {
		t.Fatalf("Marshal %s seed %d: %v", typ.Name(), seed, err)
	}
	return b
}

// reencode parses ROS bytes into a phaser payload and serializes it again.
func reencode(typ *runtime.Type, b []byte) ([]byte, error) {
	m := runtime.New(typ)
	if err := ros.Unmarshal(b, m); err != nil {
		return nil, err
	}
	return ros.Marshal(m)
}

// section is one message of a full definition.
type section struct {
	dataType string
	text     string
}

// sections splits a full definition into its messages, canonicalized:
// comments, blank lines and extra spaces dropped, constants written
// "type NAME=value", and, with resolve, nested types written in full
// ("Header" -> "std_msgs/Header", "Point" in geometry_msgs ->
// "geometry_msgs/Point").
func sections(def, dataType string, resolve bool) []section {
	var out []section
	cur := section{dataType: dataType}
	flush := func() { out = append(out, cur) }
	for line := range strings.Lines(def) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "=====") && strings.Trim(line, "=") == "" {
			flush()
			cur = section{}
			continue
		}
		if cur.dataType == "" && strings.HasPrefix(line, "MSG: ") {
			cur.dataType = strings.TrimSpace(strings.TrimPrefix(line, "MSG: "))
			continue
		}
		clean := line
		if i := strings.IndexByte(clean, '#'); i >= 0 {
			clean = clean[:i]
		}
		fields := strings.Fields(clean)
		if len(fields) == 0 {
			continue
		}
		typ, rest := fields[0], strings.Join(fields[1:], " ")
		if name, val, ok := strings.Cut(rest, "="); ok {
			if typ == "string" { // the rest of the line, '#' included
				_, val, _ = strings.Cut(line, "=")
			}
			cur.text += typ + " " + strings.TrimSpace(name) + "=" + strings.TrimSpace(val) + "\n"
			continue
		}
		if resolve {
			typ = resolveType(typ, cur.dataType)
		}
		cur.text += typ + " " + rest + "\n"
	}
	flush()
	return out
}

var builtin = []string{"bool", "byte", "char", "int8", "uint8", "int16", "uint16", "int32", "uint32",
	"int64", "uint64", "float32", "float64", "string", "time", "duration"}

// resolveType writes a .msg field type in full, as genmsg resolves it.
func resolveType(typ, owner string) string {
	base, suffix := typ, ""
	if i := strings.IndexByte(typ, '['); i >= 0 {
		base, suffix = typ[:i], typ[i:]
	}
	switch {
	case slices.Contains(builtin, base), strings.Contains(base, "/"):
	case base == "Header":
		base = "std_msgs/Header"
	default:
		pkg, _, _ := strings.Cut(owner, "/")
		base = pkg + "/" + base
	}
	return base + suffix
}

func joinSections(ss []section) string {
	var b strings.Builder
	for i, s := range ss {
		if i > 0 {
			b.WriteString(strings.Repeat("=", 80) + "\nMSG: " + s.dataType + "\n")
		}
		b.WriteString(s.text)
	}
	return b.String()
}
