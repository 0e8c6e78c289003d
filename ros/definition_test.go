package ros_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/runtime"
)

// compileProtos compiles .proto files (from srcs when not nil, else from
// ros/msgs) with phaser/options.proto and the well-known types available.
func compileProtos(t *testing.T, srcs map[string]string, files ...string) linker.Files {
	t.Helper()
	res := &protocompile.SourceResolver{ImportPaths: []string{"msgs", "../proto"}}
	if srcs != nil {
		opts, err := os.ReadFile("../proto/phaser/options.proto")
		if err != nil {
			t.Fatal(err)
		}
		srcs["phaser/options.proto"] = string(opts)
		res = &protocompile.SourceResolver{Accessor: protocompile.SourceAccessorFromMap(srcs)}
	}
	c := protocompile.Compiler{Resolver: protocompile.WithStandardImports(res)}
	compiled, err := c.Compile(context.Background(), files...)
	if err != nil {
		t.Fatalf("compile %v: %v", files, err)
	}
	return compiled
}

var (
	rosMsgsOnce  sync.Once
	rosMsgsFiles linker.Files
)

// rosMsgType returns the runtime type of a message of ros/msgs.
func rosMsgType(t *testing.T, name protoreflect.FullName) *runtime.Type {
	t.Helper()
	rosMsgsOnce.Do(func() {
		rosMsgsFiles = compileProtos(t, nil, "std_msgs/std_msgs.proto", "geometry_msgs/geometry_msgs.proto", "sensor_msgs/sensor_msgs.proto")
	})
	return typeIn(t, rosMsgsFiles, name)
}

func typeIn(t *testing.T, files linker.Files, name protoreflect.FullName) *runtime.Type {
	t.Helper()
	d, err := files.AsResolver().FindDescriptorByName(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	typ, err := runtime.TypeOf(d.(protoreflect.MessageDescriptor))
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

func md5hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

var sep = strings.Repeat("=", 80) + "\n"

const (
	headerText     = "uint32 seq\ntime stamp\nstring frame_id\n"
	xyzText        = "float64 x\nfloat64 y\nfloat64 z\n"
	quaternionText = "float64 x\nfloat64 y\nfloat64 z\nfloat64 w\n"
	pointFieldText = "uint8 INT8=1\nuint8 UINT8=2\nuint8 INT16=3\nuint8 UINT16=4\n" +
		"uint8 INT32=5\nuint8 UINT32=6\nuint8 FLOAT32=7\nuint8 FLOAT64=8\n" +
		"string name\nuint32 offset\nuint8 datatype\nuint32 count\n"
)

// The md5sums are those of ROS Noetic's messages (genpy's _md5sum).
var rosMsgCases = []struct {
	name     protoreflect.FullName
	dataType string
	md5      string
	def      string
}{
	{"std_msgs.Header", "std_msgs/Header", "2176decaecbce78abc3b96ef049fabed", headerText},
	{"std_msgs.String", "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n"},
	{"geometry_msgs.Point", "geometry_msgs/Point", "4a842b65f413084dc2b10fb484ea7f17", xyzText},
	{"geometry_msgs.Quaternion", "geometry_msgs/Quaternion", "a779879fadf0160734f906b8c19c7004", quaternionText},
	{"geometry_msgs.Vector3", "geometry_msgs/Vector3", "4a842b65f413084dc2b10fb484ea7f17", xyzText},
	{"geometry_msgs.Pose", "geometry_msgs/Pose", "e45d45a5a1ce597b249e23fb30fc871f",
		"Point position\nQuaternion orientation\n" +
			sep + "MSG: geometry_msgs/Point\n" + xyzText +
			sep + "MSG: geometry_msgs/Quaternion\n" + quaternionText},
	{"geometry_msgs.Twist", "geometry_msgs/Twist", "9f195f881246fdfa2798d1d3eebca84a",
		"Vector3 linear\nVector3 angular\n" + sep + "MSG: geometry_msgs/Vector3\n" + xyzText},
	{"sensor_msgs.Imu", "sensor_msgs/Imu", "6a62c6daae103f4ff57a132d6f95cec2",
		"Header header\n" +
			"geometry_msgs/Quaternion orientation\nfloat64[9] orientation_covariance\n" +
			"geometry_msgs/Vector3 angular_velocity\nfloat64[9] angular_velocity_covariance\n" +
			"geometry_msgs/Vector3 linear_acceleration\nfloat64[9] linear_acceleration_covariance\n" +
			sep + "MSG: std_msgs/Header\n" + headerText +
			sep + "MSG: geometry_msgs/Quaternion\n" + quaternionText +
			sep + "MSG: geometry_msgs/Vector3\n" + xyzText},
	{"sensor_msgs.Image", "sensor_msgs/Image", "060021388200f6f0f447d0fcd9c64743",
		"Header header\nuint32 height\nuint32 width\nstring encoding\nuint8 is_bigendian\nuint32 step\nuint8[] data\n" +
			sep + "MSG: std_msgs/Header\n" + headerText},
	{"sensor_msgs.PointField", "sensor_msgs/PointField", "268eacb2962780ceac86cbd17e328150", pointFieldText},
	{"sensor_msgs.PointCloud2", "sensor_msgs/PointCloud2", "1158d486dd51d683ce2f1be655c3c181",
		"Header header\nuint32 height\nuint32 width\nPointField[] fields\nbool is_bigendian\n" +
			"uint32 point_step\nuint32 row_step\nuint8[] data\nbool is_dense\n" +
			sep + "MSG: std_msgs/Header\n" + headerText +
			sep + "MSG: sensor_msgs/PointField\n" + pointFieldText},
	{"sensor_msgs.LaserScan", "sensor_msgs/LaserScan", "90c7ef2dc6895d81024acba2ac42f369",
		"Header header\nfloat32 angle_min\nfloat32 angle_max\nfloat32 angle_increment\n" +
			"float32 time_increment\nfloat32 scan_time\nfloat32 range_min\nfloat32 range_max\n" +
			"float32[] ranges\nfloat32[] intensities\n" +
			sep + "MSG: std_msgs/Header\n" + headerText},
	{"sensor_msgs.JointState", "sensor_msgs/JointState", "3066dcd76a6cfaef579bd0f34173e9fd",
		"Header header\nstring[] name\nfloat64[] position\nfloat64[] velocity\nfloat64[] effort\n" +
			sep + "MSG: std_msgs/Header\n" + headerText},
}

func TestRosMsgsMetadata(t *testing.T) {
	for _, c := range rosMsgCases {
		t.Run(string(c.name), func(t *testing.T) {
			typ := rosMsgType(t, c.name)
			dt, err := ros.DataType(typ.Descriptor())
			if err != nil || dt != c.dataType {
				t.Errorf("DataType = %q, %v; want %q", dt, err, c.dataType)
			}
			sum, err := ros.MD5(typ.Descriptor())
			if err != nil || sum != c.md5 {
				t.Errorf("MD5 = %q, %v; want %q", sum, err, c.md5)
			}
			def, err := ros.Definition(typ.Descriptor())
			if err != nil || def != c.def {
				t.Errorf("Definition = %v\n%s\nwant\n%s", err, def, c.def)
			}
		})
	}
}

// TestMD5Text checks the md5 rules on hand-built md5 texts: constants first,
// builtins as written, nested types (arrays of them too) by their md5.
func TestMD5Text(t *testing.T) {
	header := md5hex("uint32 seq\ntime stamp\nstring frame_id")
	if header != "2176decaecbce78abc3b96ef049fabed" {
		t.Fatalf("std_msgs/Header md5 text gives %s", header)
	}
	pointField := md5hex("uint8 INT8=1\nuint8 UINT8=2\nuint8 INT16=3\nuint8 UINT16=4\n" +
		"uint8 INT32=5\nuint8 UINT32=6\nuint8 FLOAT32=7\nuint8 FLOAT64=8\n" +
		"string name\nuint32 offset\nuint8 datatype\nuint32 count")
	want := md5hex(header + " header\nuint32 height\nuint32 width\n" + pointField + " fields\n" +
		"bool is_bigendian\nuint32 point_step\nuint32 row_step\nuint8[] data\nbool is_dense")
	got, err := ros.MD5(rosMsgType(t, "sensor_msgs.PointCloud2").Descriptor())
	if err != nil || got != want {
		t.Fatalf("PointCloud2 MD5 = %s, %v; want %s", got, err, want)
	}
}

const optionsProto = `
syntax = "proto3";
package example_msgs.proto;
import "phaser/options.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/any.proto";

message Status {
  enum Constants {
    option (phaser.ros_enum) = { type: "int32" };
    CONSTANTS_OK = 0;
    CONSTANTS_LEGACY_BAD = 1 [(phaser.ros_enum_value) = { name: "BAD" }];
  }
  int32 value = 1;
}

message Bool { bool data = 1; }

message Wrapper {
  enum Constants {
    option (phaser.ros_enum) = { type: "uint8" };
    CONSTANTS_UNSPECIFIED = 0 [(phaser.ros_enum_value) = { ignore: true }];
    READY = 1;
    HIGH = 2 [(phaser.ros_enum_value) = { value: "200" }];
  }
  enum Level {
    LEVEL_LOW = 0;
  }
  Bool child = 1;
  repeated int32 samples = 2 [(phaser.array_size) = 3];
  Status status = 3;
  bool ready = 4;
  google.protobuf.Timestamp stamp = 5;
  repeated google.protobuf.Timestamp stamps = 6;
  google.protobuf.Duration period = 7;
  repeated Status history = 8;
  Constants mode = 9;
  Level level = 10;
  int32 small = 11 [(phaser.ros_field) = { type: "int16" name: "tiny" }];
  repeated uint32 chars = 12 [(phaser.ros_field) = { type: "char" }, (phaser.array_size) = 4];
  bytes blob = 13;
  sint64 s64 = 14;
  fixed32 f32 = 15;
  repeated Bool flags = 16 [(phaser.array_size) = 2];
}

enum LegacyStatus {
  option (phaser.ros_enum) = { type: "uint8" };
  LEGACY_STATUS_OK = 0;
}

message LegacyStatusWrapper {
  LegacyStatus status = 1 [(phaser.ros_field) = {
    type: "example_msgs/LegacyStatus"
    nested_data_type: "example_msgs/LegacyStatus"
    nested_md5_text: "uint8 OK=0"
  }];
  Status other = 2;
}

message Named {
  option (phaser.ros_message) = {
    data_type: "other_msgs/Renamed"
    constants: { type: "string" name: "GREETING" value: "hello world" }
    constants: { type: "float64" name: "PI" value: " 3.14 " }
  };
  Bool flag = 1;
}

message WithOneof { oneof o { int32 a = 1; string b = 2; } }
message WithOptional { optional int32 a = 1; }
message WithAny { google.protobuf.Any a = 1; }
message WithMap { map<string, int32> m = 1; }
message WithRepeatedBytes { repeated bytes b = 1; }
message BothConstants {
  option (phaser.ros_message) = { constants: { type: "uint8" name: "A" value: "1" } };
  enum E { option (phaser.ros_enum) = { type: "uint8" }; E_ZERO = 0; }
  int32 x = 1;
}
message Self { repeated Self children = 1; }
message BadSuffix { repeated uint32 v = 1 [(phaser.ros_field) = { type: "uint8[4]" }]; }
message BadString { string s = 1 [(phaser.ros_field) = { type: "uint8" }]; }
message BadFloat { float f = 1 [(phaser.ros_field) = { type: "int32" }]; }
message BadNested { Bool b = 1 [(phaser.ros_field) = { type: "float64" }]; }
message Typed {
  repeated uint32 v = 1 [(phaser.ros_field) = { type: "uint8[]" }];
  bytes b = 2 [(phaser.ros_field) = { type: "char" }];
  bytes s = 3 [(phaser.ros_field) = { type: "string" }];
  repeated bytes rs = 4 [(phaser.ros_field) = { type: "string" }, (phaser.array_size) = 2];
  double d = 5 [(phaser.ros_field) = { type: "float32" }];
  Bool n = 6 [(phaser.ros_field) = { type: "example_msgs/Bool" }];
}
message NeedsMd5Text {
  int32 x = 1 [(phaser.ros_field) = { type: "example_msgs/Thing" }];
}
`

const plainProto = `
syntax = "proto3";
package plain;
import "phaser/options.proto";
message NoType { int32 x = 1; }
message UsesNoType {
  option (phaser.ros_message) = { data_type: "plain_msgs/UsesNoType" };
  NoType n = 1;
}
message UsesNamedNoType {
  option (phaser.ros_message) = { data_type: "plain_msgs/UsesNamedNoType" };
  NoType n = 1 [(phaser.ros_field) = { nested_data_type: "plain_msgs/NoType" }];
}
`

var (
	optionsOnce  sync.Once
	optionsFiles linker.Files
)

func optionsType(t *testing.T, name protoreflect.FullName) *runtime.Type {
	t.Helper()
	optionsOnce.Do(func() {
		optionsFiles = compileProtos(t, map[string]string{
			"example/options.proto": optionsProto,
			"example/plain.proto":   plainProto,
		}, "example/options.proto", "example/plain.proto")
	})
	return typeIn(t, optionsFiles, name)
}

func TestDefinitionOptions(t *testing.T) {
	bool_ := "bool data"
	status := "int32 CONSTANTS_OK=0\nint32 BAD=1\nint32 value"
	wrapperDef := "uint8 READY=1\nuint8 HIGH=200\n" +
		"Bool child\nint32[3] samples\nStatus status\nbool ready\ntime stamp\ntime[] stamps\n" +
		"duration period\nStatus[] history\nuint8 mode\nint32 level\nint16 tiny\nchar[4] chars\n" +
		"uint8[] blob\nint64 s64\nuint32 f32\nBool[2] flags\n"
	wrapperMD5 := md5hex("uint8 READY=1\nuint8 HIGH=200\n" +
		md5hex(bool_) + " child\nint32[3] samples\n" + md5hex(status) + " status\nbool ready\n" +
		"time stamp\ntime[] stamps\nduration period\n" + md5hex(status) + " history\nuint8 mode\n" +
		"int32 level\nint16 tiny\nchar[4] chars\nuint8[] blob\nint64 s64\nuint32 f32\n" +
		md5hex(bool_) + " flags")
	legacyDef := "example_msgs/LegacyStatus status\nStatus other\n"
	namedDef := "string GREETING=hello world\nfloat64 PI=3.14\nexample_msgs/Bool flag\n"
	cases := []struct {
		name     protoreflect.FullName
		dataType string
		md5      string
		def      string
	}{
		{"example_msgs.proto.Bool", "example_msgs/Bool", md5hex(bool_), bool_ + "\n"},
		{"example_msgs.proto.Status", "example_msgs/Status", md5hex(status), status + "\n"},
		{"example_msgs.proto.Wrapper", "example_msgs/Wrapper", wrapperMD5,
			wrapperDef +
				sep + "MSG: example_msgs/Bool\n" + bool_ + "\n" +
				sep + "MSG: example_msgs/Status\n" + status + "\n"},
		{"example_msgs.proto.LegacyStatusWrapper", "example_msgs/LegacyStatusWrapper",
			md5hex(md5hex("uint8 OK=0") + " status\n" + md5hex(status) + " other"),
			legacyDef +
				sep + "MSG: example_msgs/LegacyStatus\nuint8 OK=0\n" +
				sep + "MSG: example_msgs/Status\n" + status + "\n"},
		{"example_msgs.proto.Named", "other_msgs/Renamed",
			md5hex("string GREETING=hello world\nfloat64 PI=3.14\n" + md5hex(bool_) + " flag"),
			namedDef + sep + "MSG: example_msgs/Bool\n" + bool_ + "\n"},
		{"example_msgs.proto.Typed", "example_msgs/Typed",
			md5hex("uint8[] v\nchar[] b\nstring s\nstring[2] rs\nfloat32 d\n" + md5hex(bool_) + " n"),
			"uint8[] v\nchar[] b\nstring s\nstring[2] rs\nfloat32 d\nexample_msgs/Bool n\n" +
				sep + "MSG: example_msgs/Bool\n" + bool_ + "\n"},
		{"plain.UsesNamedNoType", "plain_msgs/UsesNamedNoType",
			md5hex(md5hex("int32 x") + " n"),
			"NoType n\n" + sep + "MSG: plain_msgs/NoType\nint32 x\n"},
	}
	for _, c := range cases {
		t.Run(string(c.name), func(t *testing.T) {
			typ := optionsType(t, c.name)
			dt, err := ros.DataType(typ.Descriptor())
			if err != nil || dt != c.dataType {
				t.Errorf("DataType = %q, %v; want %q", dt, err, c.dataType)
			}
			sum, err := ros.MD5(typ.Descriptor())
			if err != nil || sum != c.md5 {
				t.Errorf("MD5 = %q, %v; want %q", sum, err, c.md5)
			}
			def, err := ros.Definition(typ.Descriptor())
			if err != nil || def != c.def {
				t.Errorf("Definition = %v\n%s\nwant\n%s", err, def, c.def)
			}
		})
	}
}

func TestDefinitionErrors(t *testing.T) {
	cases := map[protoreflect.FullName]string{
		"example_msgs.proto.WithOneof":         "oneof",
		"example_msgs.proto.WithOptional":      "oneof",
		"example_msgs.proto.WithAny":           "Any",
		"example_msgs.proto.WithMap":           "map",
		"example_msgs.proto.WithRepeatedBytes": "repeated bytes",
		"example_msgs.proto.BothConstants":     "cannot be combined",
		"example_msgs.proto.Self":              "contains itself",
		"example_msgs.proto.NeedsMd5Text":      "nested_md5_text",
		"example_msgs.proto.BadSuffix":         "array suffix",
		"example_msgs.proto.BadString":         "string field",
		"example_msgs.proto.BadFloat":          "floating-point",
		"example_msgs.proto.BadNested":         "not a ROS float64",
		"plain.NoType":                         "cannot infer",
		"plain.UsesNoType":                     "cannot infer",
	}
	for name, want := range cases {
		t.Run(string(name), func(t *testing.T) {
			typ := optionsType(t, name)
			if _, err := ros.Definition(typ.Descriptor()); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Definition error = %v; want one about %q", err, want)
			}
			if _, err := ros.MD5(typ.Descriptor()); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("MD5 error = %v; want one about %q", err, want)
			}
		})
	}
	ts, err := runtime.TypeOf((&timestamppb.Timestamp{}).ProtoReflect().Descriptor())
	if err != nil {
		t.Fatal(err)
	}
	if dt, err := ros.DataType(ts.Descriptor()); err != nil || dt != "time" {
		t.Errorf("DataType(Timestamp) = %q, %v", dt, err)
	}
	if _, err := ros.MD5(ts.Descriptor()); err == nil {
		t.Error("MD5(Timestamp) succeeded; it is a builtin")
	}
	if _, err := ros.DataType(optionsType(t, "plain.NoType").Descriptor()); err == nil {
		t.Error("DataType(plain.NoType) succeeded")
	}
}
