package goldens

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// goldenSets returns the two golden directories (the fixed set is optional).
func goldenSets(t *testing.T) map[string]string {
	t.Helper()
	sets := map[string]string{"goldens": Dir(t)}
	if _, ok := os.LookupEnv(EnvFixedDir); ok {
		sets["goldens_fixed"] = FixedDir(t)
	} else if fi, err := os.Stat(filepath.Join(filepath.Dir(sets["goldens"]), "goldens_fixed")); err == nil && fi.IsDir() {
		sets["goldens_fixed"] = FixedDir(t)
	}
	return sets
}

// handle is what the recording hooks return for message objects.
type handle struct{ path string }

// recorder returns an Evaluator whose hooks accept every message operation
// and return handles, so that every statement can be executed.
func recorder() (*Evaluator, *[]string) {
	var log []string
	ev := &Evaluator{}
	ev.Call = func(c *Call, recv Value, args []Value) (Value, error) {
		for i, a := range args {
			if a == nil {
				return nil, fmt.Errorf("argument %d of %s is nil", i, c)
			}
		}
		log = append(log, fmt.Sprintf("call %s %v", c.Method, args))
		switch {
		case strings.HasPrefix(c.Method, "set_") || strings.HasPrefix(c.Method, "add_") && len(args) > 0:
			return nil, nil
		case c.Method == "title" || c.Method == "name" || c.Method == "v_string":
			return "old", nil
		case c.Method == "count" || c.Method == "id" || c.Method == "level":
			return int32(1), nil
		case c.Method == "v_int32":
			return int32(-7), nil
		case c.Method == "v_double":
			return 1.5, nil
		}
		return handle{c.String()}, nil
	}
	ev.Member = func(e *Member, x Value) (Value, error) { return handle{e.String()}, nil }
	ev.Index = func(e *Index, x, i Value) (Value, error) { return handle{e.String()}, nil }
	ev.Assign = func(a *Assign, obj, index, rhs Value) error {
		if rhs == nil {
			return errors.New("nil rhs")
		}
		log = append(log, fmt.Sprintf("assign %s %v", a.LHS, rhs))
		return nil
	}
	return ev, &log
}

func TestOpsFiles(t *testing.T) {
	for set, dir := range goldenSets(t) {
		t.Run(set, func(t *testing.T) {
			cases, err := Manifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]Case{}
			for _, c := range cases {
				names[c.Name] = c
			}
			files, err := Files(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cases {
				t.Run(c.Name, func(t *testing.T) {
					src, err := c.Read(dir, ".ops")
					if err != nil {
						t.Fatal(err)
					}
					prog, err := ParseOps(src)
					if err != nil {
						t.Fatal(err)
					}
					h := prog.Header
					if h.Name != c.Name || h.MessageType != c.MessageType || h.BufferKind != c.BufferKind || h.Tuning != c.Tuning {
						t.Errorf("header %+v does not match manifest row %+v", h, c)
					}
					if strings.HasPrefix(c.Name, "cont_") {
						if prog.Reopen == nil {
							t.Fatal("cont_ case without reopen line")
						}
						if _, ok := names[prog.Reopen.Base]; !ok {
							t.Errorf("reopen base %q is not a case", prog.Reopen.Base)
						}
					} else if prog.Reopen != nil {
						t.Errorf("unexpected reopen %+v", prog.Reopen)
					}
					// Every statement line is reproduced by String.
					lines := strings.Split(string(src), "\n")
					for _, s := range prog.Stmts {
						want := strings.TrimSuffix(strings.TrimSpace(lines[s.Line-1]), ";")
						if got := s.String(); got != want {
							t.Errorf("line %d: String() = %q, want %q", s.Line, got, want)
						}
					}
					// Every statement executes with recording hooks, and
					// every enumerator passed as a value exists in the schema.
					md, err := c.MessageDescriptor(dir)
					if err != nil {
						t.Fatal(err)
					}
					scope := NewScope(files, md)
					ev, _ := recorder()
					created := false
					ev.Call = wrapCreate(t, ev.Call, c, &created)
					if prog.Reopen != nil {
						ev.Vars = map[string]Value{"m": handle{"reopened"}}
					}
					for i := range prog.Stmts {
						s := &prog.Stmts[i]
						if _, err := ev.Exec(s); err != nil {
							t.Error(err)
						}
						walk(s.Expr, func(e Expr) {
							v, err := (&Evaluator{Vars: s.Vars}).Eval(e)
							en, ok := v.(Enum)
							if err != nil || !ok || strings.HasPrefix(en.Type, "phaser::") {
								return
							}
							if _, err := en.Number(scope); err != nil {
								t.Errorf("line %d: %v", s.Line, err)
							}
						})
					}
					if prog.Reopen == nil && !created {
						t.Error("no CreateMutable / CreateDynamicMutable call of the root message")
					}
				})
			}
		})
	}
}

// wrapCreate checks the root message's Create call against the manifest.
func wrapCreate(t *testing.T, next func(*Call, Value, []Value) (Value, error), c Case, created *bool) func(*Call, Value, []Value) (Value, error) {
	root := string(protoreflect.FullName(c.MessageType).Name())
	return func(call *Call, recv Value, args []Value) (Value, error) {
		if call.Recv == nil && (call.Method == root+"::CreateMutable" || call.Method == root+"::CreateDynamicMutable") && !*created {
			*created = true
			want := []Value{ZeroedBuffer{}, int32(c.CreateSize), Enum{Type: "phaser::Tuning", Name: "kPerformance"}}
			if c.Tuning == "size" {
				want[2] = Enum{Type: "phaser::Tuning", Name: "kSize"}
			}
			if c.Dynamic() {
				want = want[1:]
			}
			if fmt.Sprint(args) != fmt.Sprint(want) {
				t.Errorf("%s: args %v, want %v", call, args, want)
			}
		}
		return next(call, recv, args)
	}
}

func protoreflectName(s string) protoreflect.FullName { return protoreflect.FullName(s) }
