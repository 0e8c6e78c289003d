package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func goalsOf(bins []binary) string {
	var md strings.Builder
	writeGoals(func(f string, a ...any) { fmt.Fprintf(&md, f, a...) }, stats{}, bins)
	return md.String()
}

func one(phaser, peer float64) stats {
	return stats{
		{"Build", "small", "phaser"}:    {cpu: phaser, ok: true},
		{"Build", "small", "vtproto"}:   {cpu: peer, ok: true},
		{"Build", "image1M", "phaser"}:  {cpu: phaser, ok: true},
		{"Build", "image1M", "vtproto"}: {cpu: peer, ok: true},
	}
}

// TestGoalsPerBinary: a goal is met or missed only when every binary
// agrees; otherwise the cell says it flips. A shape the goal does not
// cover gets the ratios without a verdict.
func TestGoalsPerBinary(t *testing.T) {
	row := func(md string) string {
		for _, l := range strings.Split(md, "\n") {
			if strings.HasPrefix(l, "| build+publish") {
				return l
			}
		}
		return ""
	}
	for _, c := range []struct {
		a, b float64 // phaser's time in each binary, vtproto's is 100
		want string
	}{
		{70, 75, "✅ 0.70× / 0.75×"},
		{90, 95, "❌ 0.90× / 0.95×"},
		{78, 83, "⚠️ 0.78× / 0.83× flips"},
	} {
		r := row(goalsOf([]binary{{name: "A", stats: one(c.a, 100)}, {name: "B", stats: one(c.b, 100)}}))
		cells := strings.Split(r, " | ")
		if len(cells) < 7 || cells[1] != c.want {
			t.Errorf("phaser %v/%v: small cell %q, want %q (row %s)", c.a, c.b, cells[1], c.want, r)
		}
		// image1M is not a shape of the build goal: no mark.
		if got := cells[5]; strings.ContainsAny(got, "✅❌⚠") {
			t.Errorf("image1M cell %q has a verdict", got)
		}
	}
}

// TestGoalsFlipSpread: a cell that flips says how far apart the passes of
// its rows were within one binary (the widest of them), so that noise and
// placement can be told apart; a verdict does not.
func TestGoalsFlipSpread(t *testing.T) {
	a, b := one(78, 100), one(83, 100)
	a[key{"Build", "small", "phaser"}].spread = 0.05
	b[key{"Build", "small", "vtproto"}].spread = 0.47
	md := goalsOf([]binary{{name: "A", stats: a}, {name: "B", stats: b}})
	if want := "⚠️ 0.78× / 0.83× flips (passes 47% apart)"; !strings.Contains(md, want) {
		t.Errorf("goals table lacks %q:\n%s", want, md)
	}
	a, b = one(70, 100), one(75, 100)
	a[key{"Build", "small", "phaser"}].spread = 0.47
	if md := goalsOf([]binary{{name: "A", stats: a}, {name: "B", stats: b}}); strings.Contains(md, "apart") {
		t.Errorf("a verdict shows a spread:\n%s", md)
	}
}

// TestParseRawSpread: parseRaw gives each row the spread of its passes'
// CPU times.
func TestParseRawSpread(t *testing.T) {
	path := filepath.Join(t.TempDir(), "raw.txt")
	raw := "BenchmarkBuild/small/phaser-2 100 30.0 ns/op 30.0 cpu-ns/op\n" +
		"BenchmarkBuild/small/phaser-2 100 44.0 ns/op 45.0 cpu-ns/op\n" +
		"BenchmarkBuild/small/phaser-2 100 33.0 ns/op 33.0 cpu-ns/op\n"
	if err := os.WriteFile(path, []byte(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _, err := parseRaw(path)
	if err != nil {
		t.Fatal(err)
	}
	s := st[key{"Build", "small", "phaser"}]
	if s == nil || s.cpu != 33 || math.Abs(s.spread-0.5) > 1e-9 {
		t.Errorf("parseRaw: %+v, want cpu 33 and spread 0.5", s)
	}
}
