package impl

import "sync/atomic"

// PlanSlot names the per-type data a codec package compiles once per Type
// and keeps on it (a wire-format plan), so that finding it again is a load
// rather than a map lookup.
type PlanSlot uint8

// The plan slots.
const (
	ProtoPlan    PlanSlot = iota // package proto
	ROSPlan                      // package ros
	ReflectPlan                  // protobuf reflection: root views (reflect_type.go)
	HandlePlan                   // protobuf reflection: the generated handle type
	GeneratedROS                 // the generated ROS1 codec (runtime/phaserimpl.RegisterROS)
	ReusePlan                    // a decoding that reuses its root's blocks (reuse.go)
	KeepPlan                     // a Clear that keeps its root's blocks (keep.go)
	planSlots
)

// typePlans holds a Type's plans.
type typePlans [planSlots]atomic.Pointer[any]

// Plan returns the value stored for slot s with StorePlan, or nil.
func (t *Type) Plan(s PlanSlot) any {
	if p := t.plans[s].Load(); p != nil {
		return *p
	}
	return nil
}

// StorePlan stores v for slot s unless a value is stored already, and
// returns the stored value: concurrent first uses agree on one plan.
func (t *Type) StorePlan(s PlanSlot, v any) any {
	if t.plans[s].CompareAndSwap(nil, &v) {
		return v
	}
	return *t.plans[s].Load()
}
