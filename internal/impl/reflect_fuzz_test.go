package impl_test

import (
	"bytes"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/runtime"
)

// The reflection views of hostile payloads: protojson, prototext,
// proto.Equal and proto.Size over a view of any bytes return (an error or
// output bounded by the input), never panic, hang or modify the bytes.

// FuzzReflect reads data as every test type and runs protobuf-go's
// encoders over the views.
func FuzzReflect(f *testing.F) {
	types := fuzzTypes(f)
	for _, s := range hostileSeeds(f) {
		f.Add(s.data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, typ := range types {
			checkHostileReflect(t, typ, data)
		}
	})
}

// maxJSON bounds the protojson output of a view of n payload bytes: a
// payload cannot hold more values than its bytes, and no value prints in
// more than some tens of bytes (a field name, a float, an escaped rune).
func maxJSON(n int) int { return 64*n + 1<<16 }

func checkHostileReflect(t *testing.T, typ *impl.Type, data []byte) {
	orig := bytes.Clone(data)
	m, err := impl.Read(typ, data)
	if err != nil {
		return
	}
	h := runtime.Msg(impl.DynamicOf(m, typ))
	watchdog("protojson of a view of "+typ.Name(), data, func() {
		b, err := protojson.MarshalOptions{AllowPartial: true}.Marshal(h)
		if err == nil && len(b) > maxJSON(len(data)) {
			t.Errorf("protojson of a view of %s: %d bytes from a %d-byte payload", typ.Name(), len(b), len(data))
		}
		_, _ = protojson.Marshal(h)
		_ = prototext.Format(h)
		_ = proto.Equal(h, h)
		_ = proto.Size(h)
		_ = proto.CheckInitialized(h)
	})
	if !bytes.Equal(data, orig) {
		t.Fatalf("%s: a view modified the payload", typ.Name())
	}
}

// TestReflectHostile checks that the seeds whose offsets are shared or
// cyclic give an error from protojson, not output or a crash.
func TestReflectHostile(t *testing.T) {
	checked := 0
	for _, s := range hostileSeeds(t) {
		if !strings.Contains(s.name, "selfref") && !strings.Contains(s.name, "dag") {
			continue
		}
		checked++
		m, err := impl.Read(s.typ, s.data)
		if err != nil {
			continue
		}
		h := runtime.Msg(impl.DynamicOf(m, s.typ))
		var jerr error
		watchdog("protojson of "+s.name, s.data, func() { _, jerr = protojson.Marshal(h) })
		if jerr == nil || !strings.Contains(jerr.Error(), "shared or cyclic") && !strings.Contains(jerr.Error(), "deeper") {
			t.Errorf("%s: protojson of the view: %v, want an error about shared or cyclic offsets", s.name, jerr)
		}
	}
	if checked < 2 {
		t.Fatalf("%d hostile seeds with shared or cyclic offsets; expected the cycle and the DAG", checked)
	}
}
