package impl_test

import (
	"reflect"
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
)

// ssaAble reports whether the gc compiler can keep a value of type t in
// registers through inlined code (cmd/compile's ssa.CanSSA): at most four
// machine words, and a struct of at most four fields each of which it can
// keep so, or an array of at most one element. A value it cannot is kept in
// memory: an inlined accessor then copies it from the narrower stores that
// made it, and the wide loads of the copy stall store-to-load forwarding
// (a MessageList, 40 bytes, cost ReadOne/cloud 17 ns of 40).
func ssaAble(t reflect.Type) bool {
	if t.Size() > 4*8 {
		return false
	}
	switch t.Kind() {
	case reflect.Struct:
		if t.NumField() > 4 {
			return false
		}
		for i := range t.NumField() {
			if !ssaAble(t.Field(i).Type) {
				return false
			}
		}
	case reflect.Array:
		return t.Len() <= 1 && ssaAble(t.Elem())
	}
	return true
}

// TestHandlesFitRegisters checks that the handles generated accessors pass
// by value are ones the compiler keeps in registers.
func TestHandlesFitRegisters(t *testing.T) {
	for _, v := range []any{impl.Msg{}, impl.Field{}, impl.View{}, impl.MessageField{}, impl.Repeated{}} {
		if typ := reflect.TypeOf(v); !ssaAble(typ) {
			t.Errorf("%v (%d bytes, %d fields) is not kept in registers: at most 32 bytes and 4 fields, each kept so", typ, typ.Size(), typ.NumField())
		}
	}
	// The check can fail: a MessageList, which carries its element type
	// too, is one the compiler keeps in memory.
	if ssaAble(reflect.TypeOf(impl.MessageList{})) {
		t.Errorf("ssaAble(MessageList) = true, want false (40 bytes)")
	}
}
