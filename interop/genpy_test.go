package interop

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/phaser-go/phaser/ros"
	"github.com/phaser-go/phaser/runtime"
)

// python is Debian's interpreter, the one python3-genpy installs into.
const python = "/usr/bin/python3"

// genpyScript answers one JSON request per line of stdin with one JSON line
// on stdout:
//
//	{"op": "meta", "type": T}               -> {"type", "md5", "full_text"}
//	{"op": "roundtrip", "type": T, "hex": H} -> {"hex"}: deserialize, serialize
//	{"op": "random", "type": T, "seed": N}   -> {"hex"}: random values, serialize
//
// Errors come back as {"error": "..."}.
const genpyScript = `
import importlib, json, random, struct, sys, traceback
from io import BytesIO
import genpy

def cls(t):
    pkg, name = t.split('/')
    return getattr(importlib.import_module(pkg + '.msg'), name)

INTS = {'int8': (-2**7, 2**7-1), 'byte': (-2**7, 2**7-1), 'uint8': (0, 2**8-1), 'char': (0, 2**8-1),
        'int16': (-2**15, 2**15-1), 'uint16': (0, 2**16-1), 'int32': (-2**31, 2**31-1),
        'uint32': (0, 2**32-1), 'int64': (-2**63, 2**63-1), 'uint64': (0, 2**64-1)}
ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_/ .-\u00e9\u2713'

def finite(r, fmt, nbits):
    while True:
        x = struct.unpack(fmt, r.getrandbits(nbits).to_bytes(nbits // 8, 'little'))[0]
        if x == x:
            return x

def scalar(r, t):
    if t == 'bool':
        return r.random() < 0.5
    if t in INTS:
        lo, hi = INTS[t]
        return r.randint(lo, hi)
    if t == 'float32':
        return finite(r, '<f', 32)
    if t == 'float64':
        return finite(r, '<d', 64)
    if t == 'string':
        return ''.join(r.choice(ALPHABET) for _ in range(r.randrange(12)))
    if t == 'time':
        return genpy.Time(r.randrange(2**31), r.randrange(10**9))
    if t == 'duration':
        return genpy.Duration(r.randint(-2**31, 2**31-1), r.randrange(10**9))
    m = cls(t)()
    fill(r, m)
    return m

def value(r, t):
    if '[' not in t:
        return scalar(r, t)
    base, n = t[:-1].split('[')
    n = int(n) if n else r.randrange(5)
    if base in ('uint8', 'char'):
        return bytes(r.getrandbits(8) for _ in range(n if '[]' not in t else r.randrange(40)))
    return [scalar(r, base) for _ in range(n)]

def fill(r, m):
    for name, t in zip(m.__slots__, m._slot_types):
        if r.randrange(6) == 0:
            continue  # left at its default
        setattr(m, name, value(r, t))

def serialize(m):
    b = BytesIO()
    m.serialize(b)
    return b.getvalue().hex()

def answer(req):
    c = cls(req['type'])
    if req['op'] == 'meta':
        return {'type': c._type, 'md5': c._md5sum, 'full_text': c._full_text}
    if req['op'] == 'roundtrip':
        m = c()
        m.deserialize(bytes.fromhex(req['hex']))
        return {'hex': serialize(m)}
    if req['op'] == 'random':
        m = c()
        fill(random.Random(req['seed']), m)
        return {'hex': serialize(m)}
    raise ValueError('unknown op ' + req['op'])

for line in sys.stdin:
    try:
        out = answer(json.loads(line))
    except Exception:
        out = {'error': traceback.format_exc()}
    sys.stdout.write(json.dumps(out) + '\n')
`

type genpyRequest struct {
	Op   string `json:"op"`
	Type string `json:"type"`
	Hex  string `json:"hex,omitempty"`
	Seed uint64 `json:"seed,omitempty"`
}

type genpyAnswer struct {
	Type     string `json:"type"`
	MD5      string `json:"md5"`
	FullText string `json:"full_text"`
	Hex      string `json:"hex"`
	Error    string `json:"error"`
}

// runGenpy answers reqs with one run of genpyScript.
func runGenpy(t *testing.T, reqs []genpyRequest) []genpyAnswer {
	t.Helper()
	if _, err := os.Stat(python); err != nil {
		need(t, "%s is not installed", python)
	}
	if out, err := exec.Command(python, "-c", "import genpy, std_msgs.msg, geometry_msgs.msg, sensor_msgs.msg").CombinedOutput(); err != nil {
		need(t, "genpy is not installed (apt-get install python3-genpy python3-std-msgs python3-geometry-msgs python3-sensor-msgs): %v: %s", err, out)
	}
	script := filepath.Join(t.TempDir(), "genpy_interop.py")
	if err := os.WriteFile(script, []byte(genpyScript), 0o644); err != nil {
		t.Fatal(err)
	}
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for _, r := range reqs {
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(python, script)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", python, err, stderr.Bytes())
	}
	var answers []genpyAnswer
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var a genpyAnswer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("genpy answer %q: %v", sc.Text(), err)
		}
		answers = append(answers, a)
	}
	if len(answers) != len(reqs) {
		t.Fatalf("genpy gave %d answers to %d requests\n%s", len(answers), len(reqs), stderr.Bytes())
	}
	return answers
}

// TestGenpy compares ros.Marshal/Unmarshal, MD5, DataType and Definition
// with genpy's classes, for each mirrored message: phaser-go's bytes
// deserialize in genpy and serialize back the same, genpy's bytes
// unmarshal in phaser-go and marshal back the same, and the metadata agree.
func TestGenpy(t *testing.T) {
	types := rosTypes(t)
	var reqs []genpyRequest
	goBytes := map[int][]byte{}
	for _, msg := range messages {
		typ := types[msg.proto]
		reqs = append(reqs, genpyRequest{Op: "meta", Type: msg.ros})
		for seed := range uint64(seeds + 1) {
			goBytes[len(reqs)] = goMessage(t, typ, seed)
			reqs = append(reqs, genpyRequest{Op: "roundtrip", Type: msg.ros, Hex: hex.EncodeToString(goBytes[len(reqs)])})
		}
		for seed := range uint64(seeds) {
			reqs = append(reqs, genpyRequest{Op: "random", Type: msg.ros, Seed: seed + 1})
		}
	}
	answers := runGenpy(t, reqs)
	const n = 1 + seeds + 1 + seeds // answers per message
	for j, msg := range messages {
		typ := types[msg.proto]
		base := j * n
		reqs, answers := reqs[base:base+n], answers[base:base+n]
		t.Run(msg.ros, func(t *testing.T) {
			for k, a := range answers {
				if a.Error != "" {
					t.Fatalf("genpy %s %s: %s", reqs[k].Op, msg.ros, a.Error)
				}
			}
			// Metadata.
			meta := answers[0]
			if dt, err := ros.DataType(typ.Descriptor()); err != nil || dt != meta.Type {
				t.Errorf("DataType = %q, %v; genpy _type %q", dt, err, meta.Type)
			}
			if sum, err := ros.MD5(typ.Descriptor()); err != nil || sum != meta.MD5 {
				t.Errorf("MD5 = %q, %v; genpy _md5sum %q", sum, err, meta.MD5)
			}
			def, err := ros.Definition(typ.Descriptor())
			if err != nil {
				t.Fatal(err)
			}
			// genpy's text is the .msg files', comments included: compare
			// it canonicalized, as written (short type names) and resolved.
			if want := joinSections(sections(meta.FullText, msg.ros, false)); def != want {
				t.Errorf("Definition differs from genpy's _full_text (canonicalized)\n got:\n%s\nwant:\n%s", def, want)
			}
			if got, want := joinSections(sections(def, msg.ros, true)), joinSections(sections(meta.FullText, msg.ros, true)); got != want {
				t.Errorf("resolved Definition differs from genpy's\n got:\n%s\nwant:\n%s", got, want)
			}
			// phaser-go -> genpy -> same bytes. The ROS frontend's handles
			// (inline messages in format v3) write the same ROS bytes.
			rt, err := runtime.TypeFor(typ.Descriptor(), runtime.ROSFrontend)
			if err != nil {
				t.Fatal(err)
			}
			for k := 1; k <= seeds+1; k++ {
				want := goBytes[base+k]
				got, _ := hex.DecodeString(answers[k].Hex)
				if !bytes.Equal(got, want) {
					t.Errorf("seed %d: genpy re-serialized phaser-go's bytes differently\nphaser-go: %x\n    genpy: %x", k-1, want, got)
				}
				if rosFE := goMessage(t, rt, uint64(k-1)); !bytes.Equal(rosFE, want) {
					t.Errorf("seed %d: the ROS frontend's payload serializes differently\nprotobuf frontend: %x\n     ROS frontend: %x", k-1, want, rosFE)
				}
			}
			// genpy -> phaser-go -> same bytes.
			for k := seeds + 2; k < n; k++ {
				want, _ := hex.DecodeString(answers[k].Hex)
				for _, typ := range []*runtime.Type{typ, rt} {
					got, err := reencode(typ, want)
					if err != nil {
						t.Errorf("seed %d %s frontend: Unmarshal genpy's bytes: %v\n%x", reqs[k].Seed, typ.Frontend(), err, want)
						continue
					}
					if !bytes.Equal(got, want) {
						t.Errorf("seed %d %s frontend: phaser-go re-serialized genpy's bytes differently\n    genpy: %x\nphaser-go: %x", reqs[k].Seed, typ.Frontend(), want, got)
					}
				}
			}
		})
	}
}
