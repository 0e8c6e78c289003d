package testpbphaser_test

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/phaser-go/phaser/internal/testpb"
	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// defaultGetters are the getters of pb.Defaults whose absent values are
// compared with protobuf-go's (GetX).
var defaultGetters = []string{
	"Retries", "Host", "Big", "U32", "U64", "S32", "S64", "F32", "F64", "Sf32", "Sf64", "Flag",
	"Ratio", "Scale", "Inf", "Nan", "Blob", "Level", "Picked", "Plain", "PlainString",
	"ChoiceInt", "ChoiceName", "ChoiceLevel",
}

// sameValue compares a phaser getter's result with protobuf-go's: enums by
// number, floats by bits (NaN), bytes by content.
func sameValue(got, want reflect.Value) bool {
	switch got.Kind() {
	case reflect.Int32:
		return got.Int() == want.Int()
	case reflect.Float32, reflect.Float64:
		g, w := got.Float(), want.Float()
		return g == w || math.IsNaN(g) && math.IsNaN(w)
	case reflect.Slice:
		return bytes.Equal(got.Bytes(), want.Bytes())
	}
	return got.Interface() == want.Interface()
}

// checkDefaults requires every getter of x to return what protobuf-go's
// getter of ref returns.
func checkDefaults(t *testing.T, what string, x any, ref *testpb.Defaults) {
	t.Helper()
	xv, rv := reflect.ValueOf(x), reflect.ValueOf(ref)
	for _, g := range defaultGetters {
		got := xv.MethodByName(g).Call(nil)[0]
		want := rv.MethodByName("Get" + g).Call(nil)[0]
		if !sameValue(got, want) {
			t.Errorf("%s: %s() = %v, want %v (protobuf-go)", what, g, got, want)
		}
	}
}

// TestDefaults reads absent fields with proto2 defaults through every
// path: the generated getters (compiled and through the table), the view,
// a handle on an absent message, the dynamic view and ToProto. Each gives
// protobuf-go's value.
func TestDefaults(t *testing.T) {
	var zero pb.Defaults
	checkDefaults(t, "zero handle", zero, &testpb.Defaults{})
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		x := pb.NewDefaults(runtime.Options{Version: v})
		what := fmt.Sprintf("v%d", v)
		checkDefaults(t, what+" new message", x, &testpb.Defaults{})
		checkDefaults(t, what+" absent child", x.Child(), &testpb.Defaults{})
		if x.HasRetries() || x.Level() != pb.Defaults_LEVEL_LOW {
			t.Errorf("%s: HasRetries %v, Level %v (want the enum's first value)", what, x.HasRetries(), x.Level())
		}
		if vw := x.View(); vw.Retries() != 3 || vw.Big() != -42 || !vw.Flag() || vw.Ratio() != 1.25 || vw.Level() != pb.Defaults_LEVEL_LOW || vw.Plain() != 0 {
			t.Errorf("%s: view: retries %d, big %d, flag %v, ratio %v, level %v", what, vw.Retries(), vw.Big(), vw.Flag(), vw.Ratio(), vw.Level())
		}

		// Set to zero values, they read as set; cleared, as defaults.
		x.SetRetries(0)
		x.SetHost("")
		x.SetFlag(false)
		x.SetBlob(nil)
		x.SetLevel(pb.Defaults_LEVEL_HIGH)
		x.SetChoiceName("chosen")
		ref := &testpb.Defaults{Retries: new(int32), Host: new(string), Flag: new(bool), Blob: []byte{},
			Level: testpb.Defaults_LEVEL_HIGH.Enum(), Choice: &testpb.Defaults_ChoiceName{ChoiceName: "chosen"}}
		checkDefaults(t, what+" set", x, ref)
		r, err := pb.ReadDefaults(x.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		checkDefaults(t, what+" read", r, ref)
		x.ClearRetries()
		x.ClearHost()
		x.ClearFlag()
		x.ClearBlob()
		x.ClearLevel()
		x.ClearChoiceName()
		checkDefaults(t, what+" cleared", x, &testpb.Defaults{})

		// The dynamic view and ToProto give protobuf-go's reflection values.
		want := (&testpb.Defaults{}).ProtoReflect()
		p, err := x.ToProto()
		if err != nil {
			t.Fatal(err)
		}
		fields := want.Descriptor().Fields()
		for i := range fields.Len() {
			fd := fields.Get(i)
			if fd.IsList() || fd.Message() != nil {
				continue
			}
			w := want.Get(fd)
			for src, got := range map[string]protoreflect.Value{
				"Msg.Get": x.Msg().Get(x.Msg().Type().Descriptor().Fields().ByNumber(fd.Number())),
				"ToProto": p.ProtoReflect().Get(p.ProtoReflect().Descriptor().Fields().ByNumber(fd.Number())),
			} {
				if !sameValue(reflect.ValueOf(got.Interface()), reflect.ValueOf(w.Interface())) {
					t.Errorf("%s: %s of %s = %v, want %v", what, src, fd.Name(), got, w)
				}
			}
		}
	}
}
