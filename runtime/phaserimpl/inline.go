package phaserimpl

import (
	"unsafe"

	"github.com/phaser-go/phaser/internal/impl"
)

// The compiler inlines a function of another package from its export
// data, and the export data of a package carries the inline bodies of an
// indirectly imported package's functions only when an inline body of its
// own reaches them. Generated code imports this package, never
// internal/impl (which it cannot import), so each engine accessor it calls
// and must inline is reached from here, by a forwarder of its own that the
// compiler inlines (TestAccessorsInline in protoc-gen-phaser-go checks
// that the generated accessors inline). The forwarders are not called.

func reachGet8(m Msg, f Field) uint8                      { return m.Get8(f) }
func reachGet32(m Msg, f Field) uint32                    { return m.Get32(f) }
func reachGet64(m Msg, f Field) uint64                    { return m.Get64(f) }
func reachGet8Or(m Msg, f Field, d uint8) uint8           { return m.Get8Or(f, d) }
func reachGet32Or(m Msg, f Field, d uint32) uint32        { return m.Get32Or(f, d) }
func reachGet64Or(m Msg, f Field, d uint64) uint64        { return m.Get64Or(f, d) }
func reachGetSigned32(m Msg, f Field) uint32              { return m.GetSigned32(f) }
func reachGetSigned64(m Msg, f Field) uint64              { return m.GetSigned64(f) }
func reachGetSigned32Or(m Msg, f Field, d uint32) uint32  { return m.GetSigned32Or(f, d) }
func reachGetSigned64Or(m Msg, f Field, d uint64) uint64  { return m.GetSigned64Or(f, d) }
func reachViewGet8Or(v View, f Field, d uint8) uint8      { return v.Get8Or(f, d) }
func reachViewGet32Or(v View, f Field, d uint32) uint32   { return v.Get32Or(f, d) }
func reachViewGet64Or(v View, f Field, d uint64) uint64   { return v.Get64Or(f, d) }
func reachSet8(m Msg, f Field, v uint8)                   { m.Set8(f, v) }
func reachSet32(m Msg, f Field, v uint32)                 { m.Set32(f, v) }
func reachSet64(m Msg, f Field, v uint64)                 { m.Set64(f, v) }
func reachHas(m Msg, f Field) bool                        { return m.Has(f) }
func reachClearScalar(m Msg, f Field)                     { m.ClearScalar(f) }
func reachMessage(m Msg, f Field, t *Type) Msg            { return m.Message(f, t) }
func reachSlotMessage(m Msg, f Field, t *Type) Msg        { return m.SlotMessage(f, t) }
func reachInlineMessage(m Msg, f Field, t *Type) Msg      { return m.InlineMessage(f, t) }
func reachViewOf(m Msg, t *Type) View                     { return m.ViewOf(t) }
func reachIsPresent(m Msg) bool                           { return m.IsPresent() }
func reachFailed(m Msg) bool                              { return m.Failed() }
func reachErr(m Msg) error                                { return m.Err() }
func reachViewGet8(v View, f Field) uint8                 { return v.Get8(f) }
func reachViewGet32(v View, f Field) uint32               { return v.Get32(f) }
func reachViewGet64(v View, f Field) uint64               { return v.Get64(f) }
func reachViewHas(v View, f Field) bool                   { return v.Has(f) }
func reachView(m Msg, t *Type) (View, bool)               { return m.View(t) }
func reachViewBytes(v View) []byte                        { return v.Bytes() }
func reachCursorNext(c *impl.Cursor) (Msg, bool)          { return c.Next() }
func reachCursorLen(c *impl.Cursor) int                   { return c.Len() }
func reachElems(m Msg, num, data uint32, size int) []byte { return m.Elems(num, data, size) }
func reachMutableBytes(m Msg, n uint32) ([]byte, bool)    { return m.MutableBytes(n) }
func reachStoreScalars(m Msg, n uint32, v unsafe.Pointer, s func([]byte, unsafe.Pointer), g func(Msg, unsafe.Pointer)) {
	m.StoreScalars(n, v, s, g)
}

// The methods of the generated list types of repeated message fields.
func reachFieldLen(l MessageField) int                                { return l.Len() }
func reachFieldAt(l MessageField, i int, t *Type) Msg                 { return l.At(i, t) }
func reachFieldAll(l MessageField, t *Type) func(func(int, Msg) bool) { return l.All(t) }

// The engine's calls of the generated protobuf codecs.
func reachCompiledBytes(m Msg, n uint32) ([]byte, []byte, bool)        { return m.CompiledBytes(n) }
func reachSetter(m Msg, t *Type) (impl.Setter, bool)                   { return m.Setter(t) }
func reachSetterSet8(s impl.Setter, f Field, v uint8)                  { s.Set8(f, v) }
func reachSetterSet32(s impl.Setter, f Field, v uint32)                { s.Set32(f, v) }
func reachSetterSet64(s impl.Setter, f Field, v uint64)                { s.Set64(f, v) }
func reachSetterStore8(s impl.Setter, off, pres uint32, mask, v uint8) { s.Store8(off, pres, mask, v) }
func reachSetterStore32(s impl.Setter, off, pres uint32, mask uint8, v uint32) {
	s.Store32(off, pres, mask, v)
}
func reachSetterStore64(s impl.Setter, off, pres uint32, mask uint8, v uint64) {
	s.Store64(off, pres, mask, v)
}
func reachSetterStoreBytes(s impl.Setter, off uint32, v []byte) bool { return s.StoreBytes(off, v) }
func reachSetterMutableMessage(s impl.Setter, off uint32, t *Type) Msg {
	return s.MutableMessage(off, t)
}
func reachWireEnter(w *Wire, n uint32) bool      { return w.Enter(n) }
func reachWireLeave(w *Wire)                     { w.Leave() }
func reachWireCharge(w *Wire, n int) bool        { return w.Charge(n) }
func reachWireHasUnknown(w *Wire) bool           { return w.HasUnknown() }
func reachWireEnterDecode(w *Wire) bool          { return w.EnterDecode() }
func reachWireMark(w *Wire) int                  { return w.Mark() }
func reachWireKept(w *Wire, mark int) bool       { return w.Kept(mark) }
func reachAppenderAppend(a *MessageAppender) Msg { return a.Append() }
func reachWireEncode(w *Wire, m Msg) error       { return w.Encode(m) }
func reachWireEncodeReady(w *Wire, m Msg) bool   { return w.EncodeReady(m) }
func reachNestedAt(m Msg, s uint32, t *Type) Msg { return m.NestedAt(s, t) }
func reachKeptBlockApart(b, c KeptBlock) bool    { return b.Apart(c) }
func reachKeptBlockFits(b KeptBlock, n int) bool { return b.Fits(n) }
func reachKeptBlockFitsElems(b KeptBlock, n, size, max int) bool {
	return b.FitsElems(n, size, max)
}
func reachKeptBlockBefore(b, c KeptBlock) bool { return b.Before(c) }
func reachAssignerBlock(a Assigner, slot *[4]byte) (KeptBlock, bool) {
	return a.Block(slot)
}
func reachAssignerPutBytes(a Assigner, b KeptBlock, s []byte) {
	a.PutBytes(b, s)
}
func reachAssignerKeptFields(a Assigner, slot *[4]byte, t *Type, extent uint32) []byte {
	return a.KeptFields(slot, t, extent)
}
func reachAssignerMemory(a Assigner) []byte { return a.Memory() }
func reachAssignerShortAt(a Assigner, b KeptBlock, n int) (*[24]byte, uint64) {
	return a.ShortAt(b, n)
}
func reachAssignerPutShort(a Assigner, w *[24]byte, z uint64, s string) { a.PutShort(w, z, s) }

// The generated Clear's Keeper.
func reachKeeperRoot(k Keeper) uint32                  { return k.Root() }
func reachKeeperString(k Keeper, base, slot uint32)    { k.String(base, slot) }
func reachKeeperVector(k Keeper, base, slot, n uint32) { k.Vector(base, slot, n) }
func reachKeeperKept(k Keeper) bool                    { return k.Kept() }
func reachKeeperEnd(k Keeper)                          { k.End() }
func reachKeeperMemory(k Keeper) []byte                { return k.Memory() }
func reachAssignerInline(a Assigner, word *[4]byte, t *Type) (uint32, bool) {
	return a.Inline(word, t)
}
func reachNestedBytes(m Msg, s uint32, t *Type, n uint32) ([]byte, bool) {
	return m.NestedBytes(s, t, n)
}
func reachRuns(m Msg, f Field, t *Type) impl.Runs { return m.Runs(f, t) }
func reachRunLen(r impl.Run) int                  { return r.Len() }
func reachRunAt(r impl.Run, i int) Msg            { return r.At(i) }
