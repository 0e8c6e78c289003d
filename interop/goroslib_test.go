package interop

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msgproc"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/geometry_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/protocommon"

	"github.com/phaser-go/phaser/ros"
)

// goroslibTypes are goroslib's structs for the mirrored messages.
var goroslibTypes = map[string]reflect.Type{
	"std_msgs/Header":          reflect.TypeFor[std_msgs.Header](),
	"std_msgs/String":          reflect.TypeFor[std_msgs.String](),
	"geometry_msgs/Point":      reflect.TypeFor[geometry_msgs.Point](),
	"geometry_msgs/Quaternion": reflect.TypeFor[geometry_msgs.Quaternion](),
	"geometry_msgs/Pose":       reflect.TypeFor[geometry_msgs.Pose](),
	"geometry_msgs/Vector3":    reflect.TypeFor[geometry_msgs.Vector3](),
	"geometry_msgs/Twist":      reflect.TypeFor[geometry_msgs.Twist](),
	"sensor_msgs/Imu":          reflect.TypeFor[sensor_msgs.Imu](),
	"sensor_msgs/Image":        reflect.TypeFor[sensor_msgs.Image](),
	"sensor_msgs/PointField":   reflect.TypeFor[sensor_msgs.PointField](),
	"sensor_msgs/PointCloud2":  reflect.TypeFor[sensor_msgs.PointCloud2](),
	"sensor_msgs/LaserScan":    reflect.TypeFor[sensor_msgs.LaserScan](),
	"sensor_msgs/JointState":   reflect.TypeFor[sensor_msgs.JointState](),
}

// goroslibEncode returns the ROS bytes of *msg (goroslib frames them with a
// uint32 length, dropped here).
func goroslibEncode(t *testing.T, msg any) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := protocommon.MessageEncode(&b, msg); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()[4:]
}

func goroslibDecode(b []byte, msg any) error {
	framed := binary.LittleEndian.AppendUint32(nil, uint32(len(b)))
	return protocommon.MessageDecode(bytes.NewReader(append(framed, b...)), msg)
}

// randomize sets random values in v, leaving some at zero.
func randomize(r *rand.Rand, v reflect.Value) {
	switch x := v.Addr().Interface().(type) {
	case *time.Time:
		*x = time.Unix(r.Int64N(1<<31), r.Int64N(1e9)).UTC()
		return
	case *time.Duration:
		*x = time.Duration(r.Int64N(1 << 62))
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(r.Uint64())) // truncated to the field's width
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(r.Uint64())
	case reflect.Float32:
		for {
			f := math.Float32frombits(r.Uint32())
			if f == f {
				v.SetFloat(float64(f))
				return
			}
		}
	case reflect.Float64:
		for {
			f := math.Float64frombits(r.Uint64())
			if f == f {
				v.SetFloat(f)
				return
			}
		}
	case reflect.String:
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = byte(r.Uint32()) // any bytes: ROS strings are not checked
		}
		v.SetString(string(b))
	case reflect.Slice:
		n := r.IntN(5)
		if v.Type().Elem().Kind() == reflect.Uint8 {
			n = r.IntN(40)
		}
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			randomize(r, v.Index(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			randomize(r, v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).Anonymous || r.IntN(6) == 0 {
				continue // msg.Package and the like; or left at zero
			}
			randomize(r, v.Field(i))
		}
	}
}

// TestGoroslib compares ros.Marshal/Unmarshal, MD5, DataType and
// Definition with goroslib, for each mirrored message.
func TestGoroslib(t *testing.T) {
	types := rosTypes(t)
	for _, msg := range messages {
		typ := types[msg.proto]
		gt := goroslibTypes[msg.ros]
		t.Run(msg.ros, func(t *testing.T) {
			zero := reflect.New(gt).Elem().Interface()
			// Metadata.
			if want, err := msgproc.Type(zero); err != nil {
				t.Fatal(err)
			} else if dt, err := ros.DataType(typ.Descriptor()); err != nil || dt != want {
				t.Errorf("DataType = %q, %v; goroslib %q", dt, err, want)
			}
			if want, err := msgproc.MD5(zero); err != nil {
				t.Fatal(err)
			} else if sum, err := ros.MD5(typ.Descriptor()); err != nil || sum != want {
				t.Errorf("MD5 = %q, %v; goroslib %q", sum, err, want)
			}
			// goroslib writes every nested type in full and lists the
			// dependencies in another order (reverse post-order, where
			// genmsg uses pre-order): compare the resolved sections, the
			// message's own first, the others as a set.
			want, err := msgproc.Definition(zero)
			if err != nil {
				t.Fatal(err)
			}
			def, err := ros.Definition(typ.Descriptor())
			if err != nil {
				t.Fatal(err)
			}
			got, exp := sections(def, msg.ros, true), sections(want, msg.ros, true)
			gotSet, expSet := map[string]string{}, map[string]string{}
			for _, s := range got {
				gotSet[s.dataType] = s.text
			}
			for _, s := range exp {
				expSet[s.dataType] = s.text
			}
			if got[0] != exp[0] || !reflect.DeepEqual(gotSet, expSet) {
				t.Errorf("Definition differs from goroslib's (resolved)\n got:\n%s\nwant:\n%s", joinSections(got), joinSections(exp))
			}
			// phaser-go -> goroslib -> same bytes.
			for seed := range uint64(seeds + 1) {
				b := goMessage(t, typ, seed)
				v := reflect.New(gt)
				if err := goroslibDecode(b, v.Interface()); err != nil {
					t.Errorf("seed %d: goroslib decode: %v\n%x", seed, err, b)
					continue
				}
				if again := goroslibEncode(t, v.Interface()); !bytes.Equal(again, b) {
					t.Errorf("seed %d: goroslib re-encoded phaser-go's bytes differently\nphaser-go: %x\n goroslib: %x", seed, b, again)
				}
			}
			// goroslib -> phaser-go -> same bytes.
			for seed := range uint64(seeds) {
				v := reflect.New(gt)
				randomize(rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), v.Elem())
				b := goroslibEncode(t, v.Interface())
				again, err := reencode(typ, b)
				if err != nil {
					t.Errorf("seed %d: Unmarshal goroslib's bytes: %v\n%x", seed, err, b)
					continue
				}
				if !bytes.Equal(again, b) {
					t.Errorf("seed %d: phaser-go re-serialized goroslib's bytes differently\n goroslib: %x\nphaser-go: %x", seed, b, again)
				}
			}
		})
	}
}
