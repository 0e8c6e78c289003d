package testpbphaser_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/phaser-go/phaser/internal/testpb/importedpb/importedpbphaser"
	pb "github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// fillEverything sets every kind of field of x through the generated API,
// checking the semantics on the way, and leaves x in the state that
// checkEverything reads.
func fillEverything(t *testing.T, x pb.Everything) {
	t.Helper()
	// Nested messages: absent ones read as defaults (a write through one
	// is not stored, and reported: TestZeroHandle).
	if x.HasInner() || x.Inner().IsPresent() || x.Inner().A() != 0 || x.Inner().Deep().X() != 0 {
		t.Fatal("absent nested message is not a default")
	}
	fillScalars(x.MutableScalars())
	inner := x.MutableInner()
	inner.SetA(1)
	inner.SetS("inner")
	inner.MutableDeep().SetX(-2)
	inner.MutableDeep().Names().Append("d1")
	if x.MutableInner().A() != 1 { // Mutable of a present message returns it
		t.Fatal("MutableInner replaced the message")
	}
	x.MutableDeep().SetX(3)
	x.MutableRemote().SetId("remote")
	x.MutableRemote().SetLevel(importedpbphaser.Level_LEVEL_HIGH)
	x.MutableRemote().Values().Append(0.5)
	x.MutableRemote().MutablePart().SetN(4)
	x.MutableRemote().Parts().Append().SetTag("p0")
	x.MutablePart().SetTag("part")

	// Repeated messages.
	inners := x.Inners()
	inners.Append().SetA(10)
	inners.Mutable(2).SetA(12) // grows the list; element 1 stays absent
	if inners.Len() != 3 || (inners.At(1).IsPresent() && !isV3(inners.At(0).Bytes())) || inners.At(1).A() != 0 || inners.At(5).IsPresent() {
		t.Fatalf("Inners after Mutable(2): len %d", inners.Len())
	}
	inners.Mutable(1).SetA(11)
	inners.Reserve(10)
	inners.Resize(4)
	if inners.Len() != 4 || (inners.At(3).IsPresent() && !isV3(inners.At(0).Bytes())) {
		t.Fatal("Resize(4) did not add an absent element")
	}
	inners.Resize(3)
	var as []int32
	for i, e := range inners.All() {
		if i != len(as) {
			t.Fatal("All gave a wrong index")
		}
		as = append(as, e.A())
	}
	if !slices.Equal(as, []int32{10, 11, 12}) {
		t.Errorf("Inners = %v", as)
	}
	x.Remotes().Append().SetId("r0")
	x.Remotes().Allocate(2) // replaces the list with 2 new elements
	if x.Remotes().Len() != 2 || x.Remotes().At(0).Id() != "" || !x.Remotes().At(1).IsPresent() {
		t.Fatal("Allocate(2) did not replace the list")
	}
	x.Remotes().At(1).SetId("r1")

	// Enums, including negative values and other files' enums.
	x.SetMode(pb.Everything_MODE_SLOW)
	x.Modes().Append(pb.Everything_MODE_FAST)
	x.Modes().Append(pb.Everything_MODE_SLOW)
	x.SetLevel(importedpbphaser.Level_LEVEL_LOW)
	x.Levels().Append(importedpbphaser.Level_LEVEL_HIGH)

	x.MutableEmpty()
	x.Empties().Append()
	x.Empties().Append()
	x.MutableNode().MutableNext().MutableNext().SetValue(3)
	x.MutableNode().Children().Append().Children().Append().SetValue(5)

	// The oneof: each arm in turn; setting one clears the others.
	if x.WhichChoice() != pb.Everything_Choice_NotSet {
		t.Fatal("a new oneof is set")
	}
	x.SetChoiceInt32(-4)
	if x.WhichChoice() != pb.Everything_ChoiceInt32_Case || x.ChoiceInt32() != -4 || !x.HasChoiceInt32() {
		t.Fatal("oneof int32 arm")
	}
	x.SetChoiceString("choice")
	if x.WhichChoice() != pb.Everything_ChoiceString_Case || x.ChoiceString() != "choice" || x.ChoiceInt32() != 0 || x.HasChoiceInt32() {
		t.Fatal("oneof string arm")
	}
	x.SetChoiceBytes([]byte{1, 2})
	if x.WhichChoice() != pb.Everything_ChoiceBytes_Case || string(x.ChoiceBytes()) != "\x01\x02" || x.ChoiceString() != "" {
		t.Fatal("oneof bytes arm")
	}
	x.MutableChoiceInner().SetS("in oneof")
	if x.WhichChoice() != pb.Everything_ChoiceInner_Case || x.ChoiceInner().S() != "in oneof" || x.ChoiceBytes() != nil {
		t.Fatal("oneof message arm")
	}
	x.SetChoiceDouble(2.25)
	if x.ChoiceInner().IsPresent() || x.ChoiceDouble() != 2.25 {
		t.Fatal("oneof double arm")
	}
	x.SetChoiceBool(true)
	x.SetChoiceFixed64(1 << 60)
	if x.ChoiceBool() || x.ChoiceFixed64() != 1<<60 {
		t.Fatal("oneof fixed64 arm")
	}
	x.ClearChoiceInt32() // not the active arm: no effect
	if x.WhichChoice() != pb.Everything_ChoiceFixed64_Case {
		t.Fatal("clearing an inactive arm cleared the oneof")
	}
	x.ClearChoiceFixed64()
	if x.WhichChoice() != pb.Everything_Choice_NotSet || x.ChoiceFixed64() != 0 {
		t.Fatal("clearing the active arm")
	}
	x.SetChoiceMode(pb.Everything_MODE_SLOW)

	// proto3 optional fields have presence, zero values included.
	if x.HasOptInt32() || x.HasOptString() || x.HasOptInner() || x.HasOptBool() {
		t.Fatal("optional fields set in a new message")
	}
	x.SetOptInt32(0)
	x.SetOptString("")
	x.MutableOptInner()
	x.SetOptBool(false)
	x.SetOptDouble(-1.5)
	x.SetOptColor(pb.Color_COLOR_NEGATIVE)
	x.SetOptBytes([]byte("ob"))
	x.SetOptUint64(1<<64 - 1)
	if !x.HasOptInt32() || !x.HasOptString() || !x.HasOptInner() || !x.HasOptBool() {
		t.Fatal("optional fields set to zero are not present")
	}
	x.SetOptDouble(7)
	x.ClearOptDouble()
	if x.HasOptDouble() || x.OptDouble() != 0 {
		t.Fatal("ClearOptDouble")
	}

	// Maps: entries in insertion order.
	for i, k := range []string{"one", "two", "three"} {
		e := x.Counts().Append()
		e.SetKey(k)
		e.SetValue(int32(i + 1))
	}
	e := x.ById().Append()
	e.SetKey(-1 << 40)
	e.MutableValue().SetS("by id")
	x.ById().Append().SetKey(7) // an entry without a value
	r := x.RemoteByNum().Append()
	r.SetKey(5)
	r.MutableValue().SetId("remote 5")
	l := x.LabelsByKey().Append()
	l.SetKey("k")
	l.SetValue("v")

	// Any, Timestamp, Duration.
	a := x.MutableAny()
	ai := pb.MutableAnyInner(a)
	ai.SetA(77)
	ai.SetS("in any")
	pb.MutableAnyScalars(x.Anys().Append()).SetFInt32(5)
	timestamppbphaser.MutableAnyTimestamp(x.Anys().Append()).SetSeconds(60)
	x.MutableAt().SetSeconds(1700000000)
	x.MutableAt().SetNanos(5)
	x.MutableTook().SetSeconds(-3)
	x.MutableTook().SetNanos(-500)
	x.Ats().Append().SetSeconds(1)

	// Fields named like the handle's methods.
	x.SetBytes_([]byte("bytes field"))
	x.SetClear_(61)
	x.SetMsg_("msg field")
	x.SetName("name")
	x.SetNameBytes_("name_bytes")
	x.SetValue(65)
	x.SetHasValue_(true)
	x.SetErr_(67)
	x.SetFailed_(true)
	x.SetToProto_("to_proto")

	// Fixed arrays: Append stores up to N elements.
	for i := range 4 {
		x.Grid().Append(int32(i * i))
	}
	x.Labels().Append("l0")
	x.Labels().Append("l1")
	x.Cells().Allocate(3)
	x.Cells().At(2).SetA(3)
}

// checkEverything checks the state fillEverything leaves.
func checkEverything(t *testing.T, x pb.Everything) {
	t.Helper()
	checkScalars(t, x.Scalars())
	in := x.Inner()
	if !x.HasInner() || in.A() != 1 || in.S() != "inner" || in.Deep().X() != -2 || in.Deep().Names().At(0) != "d1" {
		t.Errorf("inner = %d %q %d", in.A(), in.S(), in.Deep().X())
	}
	if x.Deep().X() != 3 || !x.HasDeep() {
		t.Error("deep")
	}
	rm := x.Remote()
	if rm.Id() != "remote" || rm.Level() != importedpbphaser.Level_LEVEL_HIGH || rm.Values().At(0) != 0.5 ||
		rm.Part().N() != 4 || rm.Parts().At(0).Tag() != "p0" || x.Part().Tag() != "part" {
		t.Error("imported messages")
	}
	if x.Inners().Len() != 3 || x.Inners().At(0).A() != 10 || x.Inners().At(1).A() != 11 || x.Inners().At(2).A() != 12 {
		t.Error("inners")
	}
	if x.Remotes().Len() != 2 || x.Remotes().At(1).Id() != "r1" {
		t.Error("remotes")
	}
	if x.Mode() != pb.Everything_MODE_SLOW || x.Mode().String() != "MODE_SLOW" {
		t.Errorf("mode = %v", x.Mode())
	}
	checkList(t, "modes", x.Modes(), []pb.Everything_Mode{pb.Everything_MODE_FAST, pb.Everything_MODE_SLOW})
	if x.Level() != importedpbphaser.Level_LEVEL_LOW {
		t.Error("level")
	}
	checkList(t, "levels", x.Levels(), []importedpbphaser.Level{importedpbphaser.Level_LEVEL_HIGH})
	if !x.HasEmpty() || x.Empties().Len() != 2 || !x.Empties().At(1).IsPresent() {
		t.Error("empty")
	}
	if x.Node().Next().Next().Value() != 3 || x.Node().Next().Value() != 0 || x.Node().Children().At(0).Children().At(0).Value() != 5 {
		t.Error("node")
	}
	if x.WhichChoice() != pb.Everything_ChoiceMode_Case || x.ChoiceMode() != pb.Everything_MODE_SLOW {
		t.Errorf("choice = %d", x.WhichChoice())
	}
	if !x.HasOptInt32() || x.OptInt32() != 0 || !x.HasOptString() || x.OptString() != "" || !x.HasOptInner() ||
		!x.HasOptBool() || x.OptBool() || x.HasOptDouble() || x.OptColor() != pb.Color_COLOR_NEGATIVE ||
		string(x.OptBytes()) != "ob" || x.OptUint64() != 1<<64-1 {
		t.Error("optional fields")
	}
	var keys []string
	var vals []int32
	for _, e := range x.Counts().All() {
		keys = append(keys, e.Key())
		vals = append(vals, e.Value())
	}
	if !slices.Equal(keys, []string{"one", "two", "three"}) || !slices.Equal(vals, []int32{1, 2, 3}) {
		t.Errorf("counts = %v %v", keys, vals)
	}
	if x.ById().Len() != 2 || x.ById().At(0).Key() != -1<<40 || x.ById().At(0).Value().S() != "by id" ||
		x.ById().At(1).HasValue() || x.ById().At(1).Key() != 7 {
		t.Error("by_id")
	}
	if x.RemoteByNum().At(0).Key() != 5 || x.RemoteByNum().At(0).Value().Id() != "remote 5" {
		t.Error("remote_by_num")
	}
	if x.LabelsByKey().At(0).Key() != "k" || x.LabelsByKey().At(0).Value() != "v" {
		t.Error("labels_by_key")
	}
	a := x.Any()
	if !x.HasAny() || a.TypeURL() != "type.googleapis.com/phasertest.Inner" || a.TypeName() != "phasertest.Inner" {
		t.Errorf("any type URL %q", a.TypeURL())
	}
	if ai, ok := pb.InnerFromAny(a); !ok || ai.A() != 77 || ai.S() != "in any" {
		t.Error("InnerFromAny")
	}
	if _, ok := pb.ScalarsFromAny(a); ok {
		t.Error("ScalarsFromAny of an Any holding an Inner")
	}
	if s, ok := pb.ScalarsFromAny(x.Anys().At(0)); !ok || s.FInt32() != 5 {
		t.Error("anys[0]")
	}
	if ts, ok := timestamppbphaser.TimestampFromAny(x.Anys().At(1)); !ok || ts.Seconds() != 60 {
		t.Error("anys[1]")
	}
	if x.At().Seconds() != 1700000000 || x.At().Nanos() != 5 || x.Took().Seconds() != -3 || x.Took().Nanos() != -500 ||
		x.Ats().At(0).Seconds() != 1 {
		t.Error("timestamp and duration")
	}
	if string(x.Bytes_()) != "bytes field" || x.Clear_() != 61 || x.Msg_() != "msg field" || x.Name() != "name" ||
		x.NameBytes_() != "name_bytes" || string(x.NameBytes()) != "name" || x.Value() != 65 || !x.HasValue_() ||
		!x.HasValue() || x.Err_() != 67 || !x.Failed_() || x.ToProto_() != "to_proto" {
		t.Error("fields named like methods")
	}
	checkList(t, "grid", x.Grid(), []int32{0, 1, 4, 9})
	if got := stringsOf(x.Labels()); !slices.Equal(got, []string{"l0", "l1"}) {
		t.Errorf("labels = %q", got)
	}
	if x.Cells().Len() != 3 || x.Cells().At(2).A() != 3 || !x.Cells().At(0).IsPresent() {
		t.Error("cells")
	}
}

func TestEverything(t *testing.T) {
	for _, mk := range makers(pb.NewEverything, pb.NewEverythingIn) {
		t.Run(mk.name, func(t *testing.T) {
			x := mk.new(t)
			fillEverything(t, x)
			checkWritten(t, x)
			checkEverything(t, x)
			r, err := pb.ReadEverything(bytes.Clone(x.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			checkEverything(t, r)

			// CopyFrom through the runtime gives the same content.
			c := pb.NewEverything()
			if !c.Msg().CopyFrom(r.Msg()) {
				t.Fatal("CopyFrom failed")
			}
			checkEverything(t, c)

			// Clearing nested messages and lists.
			x.ClearInner()
			x.Inners().Clear()
			x.ClearAny()
			x.ById().Clear()
			if x.HasInner() || x.Inner().A() != 0 || x.Inners().Len() != 0 || x.HasAny() || x.ById().Len() != 0 {
				t.Error("clearing messages")
			}
			if x.Remote().Id() != "remote" {
				t.Error("clearing a message changed another")
			}
			x.Clear()
			if x.HasScalars() || x.WhichChoice() != 0 || x.HasOptInt32() || x.Counts().Len() != 0 || x.HasAt() || !slices.Equal(x.Grid().AppendTo(nil), []int32{0, 0, 0, 0}) || x.Labels().At(0) != "" {
				t.Error("Clear left fields set")
			}
			// The message can be filled again after Clear.
			fillEverything(t, x)
			checkWritten(t, x)
			checkEverything(t, x)
		})
	}
}

func TestLegacy(t *testing.T) {
	for _, mk := range makers(pb.NewLegacy, pb.NewLegacyIn) {
		t.Run(mk.name, func(t *testing.T) {
			x := mk.new(t)
			// Unset proto2 fields read as their defaults, as protobuf-go's
			// getters have them (TestDefaults has every kind); the payload
			// holds zeros, as C++ Phaser writes it.
			if x.Name() != "anon" || x.Big() != -42 || x.Kind() != pb.Legacy_KIND_B || !x.Flag() || x.Ratio() != 1.5 ||
				string(x.Blob()) != "\x01\x02" || x.NameBytes() != nil || x.HasId() || x.HasKind() {
				t.Error("an unset proto2 field does not read as its default")
			}
			if pb.Legacy_Kind(0).String() != "0" {
				t.Errorf("Kind(0).String() = %q", pb.Legacy_Kind(0).String())
			}
			x.SetId(1)
			x.SetKind(pb.Legacy_KIND_NEG)
			x.Nums().Append(1)
			x.Nums().Append(2)
			x.PackedNums().Append(3)
			x.MutableChild().SetLabel("child")
			x.Kinds().Append(pb.Legacy_KIND_A)
			x.SetPickName("pick")
			x.SetPickInt(9)
			checkWritten(t, x)
			for _, y := range []pb.Legacy{x, must(pb.ReadLegacy(x.Bytes()))} {
				if y.Id() != 1 || y.Kind() != pb.Legacy_KIND_NEG || y.Nums().At(1) != 2 || y.PackedNums().At(0) != 3 ||
					y.Child().Label() != "child" || y.Kinds().At(0) != pb.Legacy_KIND_A ||
					y.WhichPick() != pb.Legacy_PickInt_Case || y.PickName() != "" || y.PickInt() != 9 {
					t.Error("legacy fields")
				}
			}
		})
	}
}

func must[T any](x T, err error) T {
	if err != nil {
		panic(err)
	}
	return x
}

// isV3 reports whether payload is in format v3, where a repeated message
// grown by Mutable(i) holds empty messages rather than absent ones.
func isV3(payload []byte) bool { return len(payload) > 0 && payload[0] == 'P' }
