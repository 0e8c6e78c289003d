package main

import (
	"fmt"
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
