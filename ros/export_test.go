package ros

import (
	"github.com/phaser-go/phaser/internal/impl"
	"github.com/phaser-go/phaser/runtime"
)

// NarrowedFields returns the full names of the fields of t, and of the
// message types it reaches, whose ROS type is narrower than the value
// Phaser stores (a uint32 with ros_field type uint8): phaser-go writes the
// ROS width, C++ Phaser 2.1 the stored width (spec 7.3, 8.10).
func NarrowedFields(t *runtime.Type) ([]string, error) {
	p, err := planOf((*impl.Type)(t))
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[*plan]bool{}
	var visit func(p *plan)
	visit = func(p *plan) {
		if seen[p] {
			return
		}
		seen[p] = true
		for _, it := range p.items {
			for _, it := range append([]*item{it}, it.members...) {
				if it.sub != nil {
					visit(it.sub)
				}
				if w := it.rt.Width(); it.rt != Message && it.rt != String && w > 0 && w < it.size {
					out = append(out, string(it.f.Desc.FullName()))
				}
			}
		}
	}
	visit(p)
	return out, nil
}
