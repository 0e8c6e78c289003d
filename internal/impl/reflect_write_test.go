package impl_test

import (
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/runtime"
)

// Writes through the reflection view where the message is not there: the
// unpopulated message Get returns panics on modification, as protobuf-go's
// does; the message Mutable could not make (a full fixed buffer) drops the
// writes, and the payload says so, as the typed setters do.
func TestReflectWritesWithoutMessage(t *testing.T) {
	md := (&descriptorpb.DescriptorProto{}).ProtoReflect().Descriptor()
	typ, err := impl.TypeOf(md)
	if err != nil {
		t.Fatal(err)
	}
	options := md.Fields().ByName("options")
	deprecated := options.Message().Fields().ByName("deprecated")

	t.Run("Get", func(t *testing.T) {
		h := runtime.Msg(impl.DynamicOf(impl.New(typ), typ)).ProtoReflect()
		o := h.Get(options).Message()
		if o.IsValid() {
			t.Error("the unpopulated message Get returns is valid")
		}
		defer func() {
			if recover() == nil {
				t.Error("Set on the unpopulated message Get returns did not panic")
			}
		}()
		o.Set(deprecated, protoreflect.ValueOfBool(true))
	})

	t.Run("Mutable in a full buffer", func(t *testing.T) {
		dropped := 0
		for size := 1024; size <= 4096; size += 8 {
			m, err := impl.NewIn(typ, make([]byte, size))
			if err != nil {
				continue
			}
			h := runtime.Msg(impl.DynamicOf(m, typ))
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%d bytes: a write through reflection panics: %v", size, r)
					}
				}()
				o := h.ProtoReflect().Mutable(options).Message()
				o.Set(deprecated, protoreflect.ValueOfBool(true))
				o.Mutable(options.Message().Fields().ByName("uninterpreted_option")).List().AppendMutable()
			}()
			switch got := h.ProtoReflect().Get(options).Message(); {
			case got.Get(deprecated).Bool():
				// it fit
			case !m.Failed() || m.Err() == nil:
				t.Errorf("%d bytes: the write was dropped and the payload does not say so (Failed %v, Err %v)", size, m.Failed(), m.Err())
			default:
				dropped++
			}
		}
		if dropped == 0 {
			t.Error("no buffer size made Mutable fail: the test checks nothing")
		}
	})
}
