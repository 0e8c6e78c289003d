package impl_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/payloadbuffer"
	"github.com/phaser-go/phaser/runtime"
	"github.com/phaser-go/phaser/runtime/phaserimpl"
)

// TestListEditModel applies random Insert, Erase, Swap and AppendN edits to
// int32, string and message lists and compares them with Go slices.
func TestListEditModel(t *testing.T) {
	header, strs, arrays := testTypes(t)
	items, values := field(arrays, "items"), field(arrays, "values")
	names := field(strs, "names")
	seq := field(header, "seq")
	for _, v := range []payloadbuffer.Version{payloadbuffer.V2, payloadbuffer.V3} {
		t.Run(v.String(), func(t *testing.T) {
			opts := impl.Options{Version: v}
			rng := rand.New(rand.NewPCG(7, uint64(v)))
			root := impl.New(arrays, opts)
			ints := [2]runtime.List[int32]{
				phaserimpl.List[int32](root, values.Field),
				phaserimpl.List[int32](impl.New(arrays, opts), values.Field),
			}
			var intModel [2][]int32
			sroot := impl.New(strs, opts)
			strList := phaserimpl.Strings(sroot, names.Field)
			var strModel []string
			msgs := impl.NewMessageList(impl.New(arrays, opts), items.Field, items.Type)
			var msgModel []uint32
			next := int32(1)
			for step := range 2000 {
				switch rng.IntN(8) {
				case 0:
					i := rng.IntN(len(intModel[0]) + 1)
					vs := []int32{next, next + 1}
					next += 2
					if !ints[0].Insert(i, vs...) {
						t.Fatal("insert failed")
					}
					intModel[0] = slices.Insert(intModel[0], i, vs...)
				case 1:
					if n := len(intModel[0]); n > 0 {
						i := rng.IntN(n)
						j := i + rng.IntN(n-i+1)
						ints[0].Erase(i, j)
						intModel[0] = slices.Delete(intModel[0], i, j)
					}
				case 2:
					c := rng.IntN(5)
					base := next
					ints[0].AppendN(c, func(i int) int32 { return base + int32(i) })
					for i := range c {
						intModel[0] = append(intModel[0], base+int32(i))
					}
					next += int32(c)
				case 3:
					// Lists of different payloads do not swap.
					if ints[0].Swap(ints[1]) {
						t.Fatal("swap across payloads accepted")
					}
				case 4:
					i := rng.IntN(len(strModel) + 1)
					s := fmt.Sprint("s", next)
					next++
					strList.Insert(i, s)
					strModel = slices.Insert(strModel, i, s)
				case 5:
					if n := len(strModel); n > 0 {
						i := rng.IntN(n)
						j := i + rng.IntN(n-i+1)
						strList.Erase(i, j)
						strModel = slices.Delete(strModel, i, j)
					}
				case 6:
					i := rng.IntN(len(msgModel) + 1)
					msgs.Insert(i).Set32(seq.Field, uint32(next))
					msgModel = slices.Insert(msgModel, i, uint32(next))
					next++
				case 7:
					if n := len(msgModel); n > 0 {
						i := rng.IntN(n)
						j := i + rng.IntN(n-i+1)
						msgs.Erase(i, j)
						msgModel = slices.Delete(msgModel, i, j)
					}
				}
				if got := collect(ints[0].Len(), ints[0].At); !slices.Equal(got, intModel[0]) {
					t.Fatalf("step %d: ints %v, want %v", step, got, intModel[0])
				}
				if got := collect(strList.Len(), strList.At); !slices.Equal(got, strModel) {
					t.Fatalf("step %d: strings %v, want %v", step, got, strModel)
				}
				got := collect(msgs.Len(), func(i int) uint32 { return msgs.At(i).Get32(seq.Field) })
				if !slices.Equal(got, msgModel) {
					t.Fatalf("step %d: messages %v, want %v", step, got, msgModel)
				}
			}
		})
	}
}

func collect[T any](n int, at func(int) T) []T {
	out := make([]T, 0, n)
	for i := range n {
		out = append(out, at(i))
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
