package layout

import (
	"errors"
	"fmt"
	"reflect"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Cache computes message layouts under one set of [Options]. Each message
// type (keyed by descriptor identity) is laid out once, together with every
// type reachable from it, so that Field.Message links are complete, even for
// recursive types. A Cache is safe for concurrent use.
type Cache struct {
	opts Options

	mu   sync.Mutex
	done map[any]*Message
}

// NewCache returns an empty cache computing layouts under opts.
func NewCache(opts Options) *Cache {
	return &Cache{opts: opts, done: make(map[any]*Message)}
}

// descKey returns the map key of a descriptor: the descriptor itself when
// it is a pointer (every protobuf-go implementation), else its full name.
func descKey(md protoreflect.MessageDescriptor) any {
	if reflect.ValueOf(md).Kind() == reflect.Pointer {
		return md
	}
	return md.FullName()
}

// Of returns the layout of the message type md and, through Field.Message,
// of every type reachable from it. It fails when md or a type reachable from
// it cannot be laid out by Phaser (errors matching [ErrUnsupported]: groups,
// offsets beyond 24 bits, too many presence ids) or when the options are
// invalid. The result is shared and must not be modified.
func (c *Cache) Of(md protoreflect.MessageDescriptor) (*Message, error) {
	if md == nil || md.IsPlaceholder() {
		return nil, errors.New("layout: missing or unresolved message descriptor")
	}
	if v := c.opts.Version; v != 2 && v != 3 {
		return nil, fmt.Errorf("layout: unsupported version %d (want 2 or 3)", v)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if m := c.done[descKey(md)]; m != nil {
		return m, nil
	}

	b := &builder{opts: c.opts, done: c.done, fresh: map[any]*Message{}, active: map[any]bool{}}
	// Lay out md and every type reachable from it that is not yet cached.
	var order []*Message
	queue := []protoreflect.MessageDescriptor{md}
	queued := map[any]bool{descKey(md): true}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		m, err := b.layout(d)
		if err != nil {
			if descKey(d) != descKey(md) {
				err = fmt.Errorf("%w (type %s is reachable from %s)", err, d.FullName(), md.FullName())
			}
			return nil, err
		}
		order = append(order, m)
		for _, f := range m.Fields {
			if f.Kind != MessageKind {
				continue
			}
			fmd := f.Desc.Message()
			if k := descKey(fmd); c.done[k] == nil && !queued[k] {
				queued[k] = true
				queue = append(queue, fmd)
			}
		}
	}
	for _, m := range order {
		for _, f := range m.Fields {
			if f.Kind == MessageKind {
				k := descKey(f.Desc.Message())
				if f.Message = c.done[k]; f.Message == nil {
					f.Message = b.fresh[k]
				}
			}
		}
	}
	for _, m := range order {
		m.reachable = reachable(m)
		m.TypeCount = len(m.reachable)
	}
	for _, m := range order {
		c.done[descKey(m.Desc)] = m
	}
	return order[0], nil
}

// reachable lists m and the types reachable from it, breadth first, fields
// in declaration order.
func reachable(m *Message) []*Message {
	list := []*Message{m}
	seen := map[*Message]bool{m: true}
	for i := 0; i < len(list); i++ {
		for _, f := range list[i].Fields {
			if n := f.Message; n != nil && !seen[n] {
				seen[n] = true
				list = append(list, n)
			}
		}
	}
	return list
}

// builder lays out the types of one Cache.Of call.
type builder struct {
	opts   Options
	done   map[any]*Message // complete layouts from earlier calls
	fresh  map[any]*Message // computed in this call, not yet linked
	active map[any]bool     // being computed (inline recursion guard)
}

func (b *builder) layout(md protoreflect.MessageDescriptor) (*Message, error) {
	k := descKey(md)
	if m := b.done[k]; m != nil {
		return m, nil
	}
	if m := b.fresh[k]; m != nil {
		return m, nil
	}
	if b.active[k] {
		return nil, fmt.Errorf("layout: %s: inline message recursion", md.FullName())
	}
	b.active[k] = true
	defer delete(b.active, k)
	m, err := compute(md, b.opts, func(n protoreflect.MessageDescriptor) (uint32, error) {
		nm, err := b.layout(n)
		if err != nil {
			return 0, err
		}
		return nm.BinarySize, nil
	})
	if err != nil {
		return nil, err
	}
	b.fresh[k] = m
	return m, nil
}
