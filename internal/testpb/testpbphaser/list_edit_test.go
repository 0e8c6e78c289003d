package testpbphaser_test

import (
	"slices"
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
)

// nodeValues returns the value fields of the elements of l.
func nodeValues(l pb.NodeList) []int32 {
	var vs []int32
	for _, e := range l.All() {
		vs = append(vs, e.Value())
	}
	return vs
}

// TestMessageListEdits checks the typed message lists' Insert, Erase, Swap
// and AppendN, in every payload format and buffer kind.
func TestMessageListEdits(t *testing.T) {
	for _, mk := range makers(pb.NewNode, pb.NewNodeIn) {
		t.Run(mk.name, func(t *testing.T) {
			x := mk.new(t)
			l := x.Children()
			if !l.AppendN(3, func(i int, e pb.Node) { e.SetValue(int32(i + 1)) }) {
				t.Fatal("AppendN failed")
			}
			l.Insert(0).SetValue(10)
			l.Insert(4).SetValue(40)
			l.Insert(2).SetValue(20)
			if got, want := nodeValues(l), []int32{10, 1, 20, 2, 3, 40}; !slices.Equal(got, want) {
				t.Fatalf("after Insert: %v, want %v", got, want)
			}
			if x.Failed() {
				t.Fatal(x.Err())
			}
			if !l.Erase(1, 3) || l.Erase(3, 2) || l.Erase(0, 9) {
				t.Error("Erase: a valid range refused or an invalid one taken")
			}
			if got, want := nodeValues(l), []int32{10, 2, 3, 40}; !slices.Equal(got, want) {
				t.Fatalf("after Erase(1, 3): %v, want %v", got, want)
			}
			if l.Swap(mk.new(t).Children()) {
				t.Error("Swap with a list of another payload succeeded")
			}
			n := x.MutableNext().Children() // a list of the same type, same payload
			n.Append().SetValue(7)
			if !l.Swap(n) {
				t.Fatal("Swap in one payload failed")
			}
			if got := nodeValues(l); !slices.Equal(got, []int32{7}) {
				t.Errorf("after Swap: %v, want [7]", got)
			}
			if got := nodeValues(n); !slices.Equal(got, []int32{10, 2, 3, 40}) {
				t.Errorf("the other list after Swap: %v", got)
			}
			if x.Failed() {
				t.Fatal(x.Err())
			}
			// The payload reads back the same.
			r := must(pb.ReadNode(x.Bytes()))
			if got := nodeValues(r.Next().Children()); !slices.Equal(got, []int32{10, 2, 3, 40}) {
				t.Errorf("read back: %v", got)
			}
		})
	}
}
