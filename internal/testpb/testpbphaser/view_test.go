package testpbphaser_test

import (
	"testing"

	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
)

// TestView: a generated view reads every singular scalar as the handle's
// getters do, present, absent after Clear, and through an absent message;
// taking and reading a view allocates nothing.
func TestView(t *testing.T) {
	for _, mk := range makers(pb.NewScalars, pb.NewScalarsIn) {
		t.Run(mk.name, func(t *testing.T) {
			x := mk.new(t)
			same := func(what string) {
				t.Helper()
				v := x.View()
				for _, c := range []struct {
					name            string
					got, want       any
					gotHas, wantHas bool
				}{
					{"f_double", v.FDouble(), x.FDouble(), v.HasFDouble(), x.HasFDouble()},
					{"f_float", v.FFloat(), x.FFloat(), v.HasFFloat(), x.HasFFloat()},
					{"f_int32", v.FInt32(), x.FInt32(), v.HasFInt32(), x.HasFInt32()},
					{"f_int64", v.FInt64(), x.FInt64(), v.HasFInt64(), x.HasFInt64()},
					{"f_uint32", v.FUint32(), x.FUint32(), v.HasFUint32(), x.HasFUint32()},
					{"f_uint64", v.FUint64(), x.FUint64(), v.HasFUint64(), x.HasFUint64()},
					{"f_sint32", v.FSint32(), x.FSint32(), v.HasFSint32(), x.HasFSint32()},
					{"f_sint64", v.FSint64(), x.FSint64(), v.HasFSint64(), x.HasFSint64()},
					{"f_fixed32", v.FFixed32(), x.FFixed32(), v.HasFFixed32(), x.HasFFixed32()},
					{"f_fixed64", v.FFixed64(), x.FFixed64(), v.HasFFixed64(), x.HasFFixed64()},
					{"f_sfixed32", v.FSfixed32(), x.FSfixed32(), v.HasFSfixed32(), x.HasFSfixed32()},
					{"f_sfixed64", v.FSfixed64(), x.FSfixed64(), v.HasFSfixed64(), x.HasFSfixed64()},
					{"f_bool", v.FBool(), x.FBool(), v.HasFBool(), x.HasFBool()},
					{"f_color", v.FColor(), x.FColor(), v.HasFColor(), x.HasFColor()},
				} {
					if c.got != c.want || c.gotHas != c.wantHas {
						t.Errorf("%s: %s: view %v (present %v), handle %v (present %v)", what, c.name, c.got, c.gotHas, c.want, c.wantHas)
					}
				}
			}
			same("new")
			fillScalars(x)
			same("filled")
			if v := x.View(); v.FSint64() != -1<<40 || !v.FBool() || v.FColor() != pb.Color_COLOR_MIN {
				t.Errorf("view reads %d %v %v", v.FSint64(), v.FBool(), v.FColor())
			}
			x.ClearFInt32()
			x.SetFUint32(0)
			same("a field cleared, one set to 0")
			requireNoAllocs(t, "view", func() { sinkI64 = x.View().FSint64() + int64(x.View().FInt32()) })
			x.Clear()
			same("cleared")
			if (pb.Scalars{}).View().HasFDouble() {
				t.Error("the zero handle's view has a field")
			}
		})
	}
}
