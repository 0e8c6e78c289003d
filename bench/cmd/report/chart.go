package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/phaser-go/phaser/bench"
)

var libColor = map[string]string{
	"phaser":            "#d62728",
	"phaser-v2":         "#e377c2",
	"phaser-ros":        "#c49c94",
	"phaser-new":        "#ff9896",
	"phaser-assign":     "#ff7f0e",
	"phaser-ros-assign": "#ffbb78",
	"flatbuffers-safe":  "#98df8a",
	"ros1-floor":        "#000000",
	"build-floor":       "#404040",
	"read-floor":        "#808080",
	"protobuf":          "#1f77b4",
	"vtproto":           "#17becf",
	"flatbuffers":       "#2ca02c",
	"capnp":             "#9467bd",
	"goroslib":          "#8c564b",
	"protobuf+goroslib": "#7f7f7f",
	"vtproto+goroslib":  "#bcbd22",
}

func peerOf(g *goal) string {
	if g == nil {
		return ""
	}
	return g.peer
}

func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// chart draws, per operation, a panel of horizontal bars: for each shape,
// each library's time relative to the fastest, on a log scale.
func chart(all stats) string {
	const (
		width    = 560
		labelW   = 150
		barH     = 11
		gap      = 2
		shapeGap = 10
		cols     = 2
		margin   = 20
	)
	type panel struct {
		svg    strings.Builder
		height int
	}
	var panels []*panel
	for _, op := range bench.Ops {
		libs := libsOf(all, op)
		if len(libs) == 0 {
			continue
		}
		// Each panel has its own log scale, whole decades.
		maxRatio := 1.0
		for k, st := range all {
			if st.ok && k.op == op {
				maxRatio = max(maxRatio, st.t()/fastest(all, k.op, k.shape))
			}
		}
		decades := max(1, math.Ceil(math.Log10(maxRatio)+0.01))
		plotW := float64(width - labelW - 150)
		xOf := func(r float64) float64 { return float64(labelW) + plotW*math.Log10(r)/decades }
		var g *goal // the first goal of the operation
		for i := range goals {
			if goals[i].op == op && g == nil {
				g = &goals[i]
			}
		}
		p := &panel{}
		y := 34
		fmt.Fprintf(&p.svg, `<text x="0" y="14" font-size="13" font-weight="bold">%s</text>`+"\n", esc(op))
		fmt.Fprintf(&p.svg, `<text x="0" y="27" font-size="9" fill="#555">%s</text>`+"\n", esc(opTitle[op]))
		top := y
		for _, s := range bench.Shapes {
			fmt.Fprintf(&p.svg, `<text x="0" y="%d" font-size="11" font-weight="bold">%s</text>`+"\n", y+barH-1, s)
			y += barH + gap
			best := fastest(all, op, s)
			for _, lib := range libs {
				st := all[key{op, s, lib}]
				if st == nil || !st.ok {
					continue
				}
				r := st.t() / best
				x1 := xOf(r)
				weight := "normal"
				if lib == "phaser" {
					weight = "bold"
				}
				fmt.Fprintf(&p.svg, `<text x="%d" y="%d" font-size="9" text-anchor="end" font-weight="%s">%s</text>`+"\n", labelW-4, y+barH-2, weight, esc(lib))
				fmt.Fprintf(&p.svg, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n", labelW, y, max(2, x1-labelW), barH, libColor[lib])
				if q := all[key{op, s, peerOf(g)}]; lib == "phaser" && g != nil && q != nil && q.ok && g.max[s] > 0 {
					// The goal: g.max times the peer's time.
					gx := xOf(max(1, q.t()/best*g.max[s]))
					fmt.Fprintf(&p.svg, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black" stroke-width="2"/>`+"\n", gx, y-2, gx, y+barH+2)
				}
				allocs := ""
				if st.allocs > 0 {
					allocs = fmt.Sprintf(", %g allocs", st.allocs)
				}
				fmt.Fprintf(&p.svg, `<text x="%.1f" y="%d" font-size="9">%.2f× %s%s</text>`+"\n", x1+3, y+barH-2, r, esc(fmtNs(st.t())), esc(allocs))
				y += barH + gap
			}
			y += shapeGap
		}
		// Decade grid lines.
		for d := 0.0; d <= decades; d++ {
			x := xOf(math.Pow(10, d))
			fmt.Fprintf(&p.svg, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ccc" stroke-width="0.5"/>`+"\n", x, top, x, y-shapeGap)
			fmt.Fprintf(&p.svg, `<text x="%.1f" y="%d" font-size="8" fill="#777" text-anchor="middle">%g×</text>`+"\n", x, y-shapeGap+9, math.Pow(10, d))
		}
		p.height = y + 4
		panels = append(panels, p)
	}
	// Lay the panels out in columns, row by row.
	var body strings.Builder
	rowY := 60
	for i := 0; i < len(panels); i += cols {
		h := 0
		for c := 0; c < cols && i+c < len(panels); c++ {
			p := panels[i+c]
			fmt.Fprintf(&body, `<g transform="translate(%d,%d)">`+"\n%s</g>\n", margin+c*(width+margin), rowY, p.svg.String())
			h = max(h, p.height)
		}
		rowY += h + 10
	}
	total := cols*(width+margin) + margin
	var out strings.Builder
	fmt.Fprintf(&out, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">`+"\n", total, rowY+10)
	fmt.Fprintf(&out, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&out, `<text x="%d" y="24" font-size="16" font-weight="bold">phaser-go vs peers: CPU time per op relative to the fastest (log scale, shorter is better)</text>`+"\n", margin)
	x := margin
	for _, lib := range bench.Libs {
		fmt.Fprintf(&out, `<rect x="%d" y="36" width="10" height="10" fill="%s"/><text x="%d" y="45" font-size="10">%s</text>`+"\n", x, libColor[lib], x+13, esc(lib))
		x += 20 + 6*len(lib) + 10
	}
	fmt.Fprintf(&out, `<line x1="%d" y1="34" x2="%d" y2="48" stroke="black" stroke-width="2"/><text x="%d" y="45" font-size="10">goal for phaser (drawn at 1× when below the fastest)</text>`+"\n", x, x, x+5)
	out.WriteString(body.String())
	out.WriteString("</svg>\n")
	return out.String()
}
