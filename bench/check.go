package bench

import (
	"bytes"
	"fmt"
	"reflect"
	"sync"

	protobuf "google.golang.org/protobuf/proto"
)

// Ops are the benchmarked operations, in the order RESULTS.md lists them.
// EndToEnd is publish-then-read: Build, then ReadAll of the published
// bytes (a subscriber reads every field).
var Ops = []string{"Build", "Republish", "ReadAll", "ReadOne", "EndToEnd", "ProtoMarshal", "ProtoUnmarshal", "ROSMarshal", "ROSUnmarshal", "Transcode"}

// source returns the bytes of value i that c's readers read: Source's,
// else Build's.
func (c *Codec) source(i int) []byte {
	if c.Source != nil {
		return c.Source(i)
	}
	return c.Build(i)
}

// Has reports whether c takes part in op.
func (c *Codec) Has(op string) bool {
	switch op {
	case "Build":
		return c.Build != nil
	case "Republish":
		return c.Republish != nil
	case "EndToEnd":
		return c.Build != nil && c.ReadAll != nil
	case "ReadAll":
		return c.ReadAll != nil
	case "ReadOne":
		return c.ReadOne != nil
	case "ProtoMarshal":
		return c.ProtoMarshal != nil
	case "ProtoUnmarshal":
		return c.ProtoUnmarshal != nil
	case "ROSMarshal":
		return c.ROSMarshal != nil
	case "ROSUnmarshal":
		return c.ROSUnmarshal != nil
	case "Transcode":
		return c.Transcode != nil
	}
	return false
}

// The reference bytes of value i of a shape: protobuf wire from protobuf-go
// (deterministic), ROS1 from goroslib. Computed once.
var refs struct {
	sync.Mutex
	pb, ros map[string][][]byte
}

func pbRefs(shape string) [][]byte {
	var src []protobuf.Message
	switch shape {
	case "small":
		for _, m := range pbSources(Values.Small, pbSetSmall) {
			src = append(src, m)
		}
	case "header":
		for _, m := range pbSources(Values.Header, pbSetHeader) {
			src = append(src, m)
		}
	case "imu":
		for _, m := range pbSources(Values.Imu, pbSetImu) {
			src = append(src, m)
		}
	case "cloud":
		for _, m := range pbSources(Values.Cloud, pbSetCloud) {
			src = append(src, m)
		}
	case "image1M":
		for _, m := range pbSources(Values.Image1M, pbSetImage) {
			src = append(src, m)
		}
	case "image16M":
		for _, m := range pbSources(Values.Image16M, pbSetImage) {
			src = append(src, m)
		}
	}
	out := make([][]byte, len(src))
	for i, m := range src {
		b, err := protobuf.MarshalOptions{Deterministic: true}.Marshal(m)
		must(err)
		out[i] = b
	}
	return out
}

// PB returns the protobuf wire bytes of every value of shape.
func PB(shape string) [][]byte {
	refs.Lock()
	defer refs.Unlock()
	if refs.pb == nil {
		refs.pb, refs.ros = map[string][][]byte{}, map[string][][]byte{}
	}
	if refs.pb[shape] == nil {
		refs.pb[shape] = pbRefs(shape)
	}
	return refs.pb[shape]
}

// ROS returns the ROS1 message bodies of every value of shape.
func ROS(shape string) [][]byte {
	refs.Lock()
	defer refs.Unlock()
	if refs.ros == nil {
		refs.pb, refs.ros = map[string][][]byte{}, map[string][][]byte{}
	}
	if refs.ros[shape] == nil {
		c := NewCodec("goroslib", shape)
		for i := range N(shape) {
			refs.ros[shape] = append(refs.ros[shape], bytes.Clone(c.ROSMarshal(i)))
		}
	}
	return refs.ros[shape]
}

// Payloads returns the bytes c publishes for every value of shape, copied
// as a receiver would have them.
func Payloads(c *Codec, shape string) [][]byte {
	out := make([][]byte, N(shape))
	for i := range out {
		out[i] = bytes.Clone(c.source(i))
	}
	return out
}

func same(got any, i int, shape string) error { return sameAs(got, Value(shape, i), i) }

func sameAs(got, want any, i int) error {
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("value %d: round trip differs:\n got %s\nwant %s", i, brief(got), brief(want))
	}
	return nil
}

// brief prints a value, eliding large slices.
func brief(v any) string {
	if c, ok := v.(*Cloud); ok && c != nil {
		d := *c
		return fmt.Sprintf("Cloud{Header:%+v H:%d W:%d Fields:%+v BE:%v PS:%d RS:%d len(Data):%d Dense:%v len(Points):%d UseAll:%d}",
			d.Header, d.Height, d.Width, d.Fields, d.IsBigendian, d.PointStep, d.RowStep, len(d.Data), d.IsDense, len(d.Points), UseAll(c))
	}
	if m, ok := v.(*Image); ok && m != nil {
		return fmt.Sprintf("Image{Header:%+v H:%d W:%d Enc:%q BE:%d Step:%d len(Data):%d UseAll:%d}",
			m.Header, m.Height, m.Width, m.Encoding, m.IsBigendian, m.Step, len(m.Data), UseAll(m))
	}
	return fmt.Sprintf("%+v", v)
}

// Check verifies that lib's codec c does op correctly on every value of
// shape: that what it builds reads back as the value, that its readers
// return the sums of the values, that its protobuf and ROS1 bytes are the
// reference bytes (protobuf-go, goroslib) and parse back to the values.
// Each check runs over the value set twice, so that reused buffers are
// exercised. i is in [0, N(shape)) in every call of a codec function.
func Check(op, shape string, c *Codec) error {
	n := N(shape)
	for pass := range 2 {
		for i := range n {
			if err := checkOne(op, shape, c, i); err != nil {
				return fmt.Errorf("%s/%s (pass %d): %w", op, shape, pass, err)
			}
		}
	}
	return nil
}

func checkOne(op, shape string, c *Codec, i int) error {
	n := N(shape)
	switch op {
	case "Build":
		out := bytes.Clone(c.Build(i))
		v, err := c.Decode(out)
		if err != nil {
			return err
		}
		return same(v, i, shape)
	case "Republish":
		out := bytes.Clone(c.Republish(i))
		v, err := c.Decode(out)
		if err != nil {
			return err
		}
		return sameAs(v, Republished(shape, i), i)
	case "EndToEnd":
		// What a subscriber reads of what was just published.
		if got, want := c.ReadAll(c.Build(i)), UseAll(Value(shape, i)); got != want {
			return fmt.Errorf("value %d: publish-then-read sum %d, want %d", i, got, want)
		}
		return nil
	case "ReadAll", "ReadOne":
		// A fresh build of a different value in between: the readers must
		// only depend on the received bytes.
		data := bytes.Clone(c.source(i))
		c.source((i + 1) % n)
		if op == "ReadAll" {
			if got, want := c.ReadAll(data), UseAll(Value(shape, i)); got != want {
				return fmt.Errorf("value %d: read-all sum %d, want %d", i, got, want)
			}
			return nil
		}
		if got, want := c.ReadOne(data), UseOne(Value(shape, i)); got != want {
			return fmt.Errorf("value %d: read-one sum %d, want %d", i, got, want)
		}
		return nil
	case "ProtoMarshal":
		got, want := c.ProtoMarshal(i), PB(shape)[i%n]
		if !bytes.Equal(got, want) {
			return fmt.Errorf("value %d: protobuf wire differs from protobuf-go's (%d vs %d bytes)", i, len(got), len(want))
		}
		return nil
	case "ProtoUnmarshal":
		if err := c.ProtoUnmarshal(PB(shape)[i%n]); err != nil {
			return err
		}
		v, err := c.ProtoResult()
		if err != nil {
			return err
		}
		return same(v, i%n, shape)
	case "ROSMarshal":
		got, want := c.ROSMarshal(i), ROS(shape)[i%n]
		if !bytes.Equal(got, want) {
			return fmt.Errorf("value %d: ROS1 bytes differ from goroslib's (%d vs %d bytes)", i, len(got), len(want))
		}
		return nil
	case "ROSUnmarshal":
		if err := c.ROSUnmarshal(ROS(shape)[i%n]); err != nil {
			return err
		}
		v, err := c.ROSResult()
		if err != nil {
			return err
		}
		return same(v, i%n, shape)
	case "Transcode":
		got, err := c.Transcode(PB(shape)[i%n])
		if err != nil {
			return err
		}
		if want := ROS(shape)[i%n]; !bytes.Equal(got, want) {
			return fmt.Errorf("value %d: transcoded ROS1 bytes differ from goroslib's (%d vs %d bytes)", i, len(got), len(want))
		}
		return nil
	}
	return fmt.Errorf("unknown op %q", op)
}
