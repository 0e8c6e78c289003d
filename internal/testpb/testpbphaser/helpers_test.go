package testpbphaser_test

import (
	"iter"
	"slices"
	"testing"

	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
)

// maker creates a message of type T in one of the ways a program can: an
// owned buffer or caller memory, in either payload format and tuning.
type maker[T any] struct {
	name string
	new  func(t *testing.T) T
}

func makers[T any](owned func(...runtime.Options) T, in func([]byte, ...runtime.Options) (T, error)) []maker[T] {
	fixed := func(opts runtime.Options) func(t *testing.T) T {
		return func(t *testing.T) T {
			t.Helper()
			x, err := in(make([]byte, 64<<10), opts)
			if err != nil {
				t.Fatal(err)
			}
			return x
		}
	}
	v2 := runtime.Options{Version: payloadbuffer.V2}
	v2size := runtime.Options{Version: payloadbuffer.V2, Tuning: payloadbuffer.Size}
	return []maker[T]{
		{"owned", func(*testing.T) T { return owned() }}, // the default: v3
		{"owned-small", func(*testing.T) T { return owned(runtime.Options{InitialSize: 64}) }},
		{"owned-v2", func(*testing.T) T { return owned(v2) }},
		{"fixed", fixed(runtime.Options{})},
		{"fixed-v2", fixed(v2)},
		{"fixed-v2-size", fixed(v2size)},
	}
}

// handle is what every generated message handle has.
type handle interface {
	Bytes() []byte
	Failed() bool
	Err() error
	IsPresent() bool
}

// checkWritten fails if writing x failed.
func checkWritten(t *testing.T, x handle) {
	t.Helper()
	if x.Failed() || x.Err() != nil {
		t.Fatalf("write failed: Failed %v, Err %v", x.Failed(), x.Err())
	}
}

// scalarList is what the runtime's scalar list handles have.
type scalarList[T comparable] interface {
	Len() int
	At(int) T
	Set(int, T)
	Append(T)
	Reserve(int)
	Resize(int)
	Clear()
	All() iter.Seq2[int, T]
}

// exerciseList runs every list operation on l and leaves it holding vals.
func exerciseList[T comparable](t *testing.T, name string, l scalarList[T], vals []T) {
	t.Helper()
	var zero T
	l.Clear()
	if l.Len() != 0 {
		t.Fatalf("%s: Len after Clear = %d", name, l.Len())
	}
	l.Reserve(len(vals))
	if l.Len() != 0 {
		t.Fatalf("%s: Len after Reserve = %d", name, l.Len())
	}
	for _, v := range vals {
		l.Append(v)
	}
	checkList(t, name, l, vals)
	if got := l.At(len(vals)); got != zero {
		t.Errorf("%s: At(out of range) = %v", name, got)
	}
	if got := l.At(-1); got != zero {
		t.Errorf("%s: At(-1) = %v", name, got)
	}
	// Set in range replaces; out of range is ignored.
	l.Set(0, vals[len(vals)-1])
	l.Set(len(vals), vals[0])
	if l.At(0) != vals[len(vals)-1] || l.Len() != len(vals) {
		t.Errorf("%s: after Set(0): At(0) = %v, Len %d", name, l.At(0), l.Len())
	}
	l.Set(0, vals[0])
	// Resize grows with zeros and shrinks.
	l.Resize(len(vals) + 2)
	if l.Len() != len(vals)+2 || l.At(len(vals)) != zero || l.At(len(vals)+1) != zero || l.At(0) != vals[0] {
		t.Errorf("%s: after Resize(+2): Len %d, tail %v %v", name, l.Len(), l.At(len(vals)), l.At(len(vals)+1))
	}
	l.Resize(1)
	if l.Len() != 1 || l.At(0) != vals[0] {
		t.Errorf("%s: after Resize(1): Len %d", name, l.Len())
	}
	l.Clear()
	for _, v := range vals {
		l.Append(v)
	}
	checkList(t, name, l, vals)
}

// checkList requires l to hold vals, through At and All.
func checkList[T comparable](t *testing.T, name string, l interface {
	Len() int
	At(int) T
	All() iter.Seq2[int, T]
}, vals []T) {
	t.Helper()
	if l.Len() != len(vals) {
		t.Fatalf("%s: Len = %d, want %d", name, l.Len(), len(vals))
	}
	var all []T
	for i, v := range l.All() {
		if i != len(all) {
			t.Fatalf("%s: All gave index %d at position %d", name, i, len(all))
		}
		all = append(all, v)
		if got := l.At(i); got != vals[i] {
			t.Errorf("%s: At(%d) = %v, want %v", name, i, got, vals[i])
		}
	}
	if !slices.Equal(all, vals) {
		t.Errorf("%s: All = %v, want %v", name, all, vals)
	}
	for i, v := range l.All() {
		if i > 0 {
			t.Errorf("%s: All went on after break (%d, %v)", name, i, v)
		}
		break
	}
}

// strings of a StringList through At, AtBytes and All.
func stringsOf(l runtime.StringList) []string {
	var out []string
	for i, b := range l.All() {
		if s := l.At(i); s != string(b) || string(l.AtBytes(i)) != s {
			panic("StringList: At, AtBytes and All disagree")
		}
		out = append(out, string(b))
	}
	return out
}
