// Command report turns the bench suite's results into RESULTS.md (the
// goals, per binary; code placement; the harness; bytes published; ratios
// to the fastest library of each operation and shape, with benchstat's
// medians and confidence intervals, allocations) and an SVG chart.
//
//	go run ./cmd/report -stats results/stats.csv -raw results/raw.txt \
//		-binaries results/binaries.txt -out RESULTS.md -svg results.svg
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/cpuid/v2"

	"github.com/phaser-go/phaser/bench"
)

func fmtNs(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	default:
		return fmt.Sprintf("%.1f ns", ns)
	}
}

func fmtCI(ci string) string {
	if ci == "" || ci == "∞" {
		return ""
	}
	if f, err := strconv.ParseFloat(ci, 64); err == nil {
		return fmt.Sprintf(" ±%.0f%%", f*100)
	}
	return " " + ci
}

func fmtBytes(n float64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.3f MiB", n/(1<<20))
	case n >= 100<<10:
		return fmt.Sprintf("%.1f KiB", n/(1<<10))
	default:
		return fmt.Sprintf("%.0f B", n)
	}
}

var opTitle = map[string]string{
	"Build":          "Build + publish (set every field in a warm message, take the bytes to send)",
	"Republish":      "Republish (change one field of a built message: money, or the header's stamp.nsec; take the bytes to send again)",
	"ReadAll":        "Read all (open received bytes, read every field)",
	"ReadOne":        "Read one (open received bytes, read one nested field)",
	"EndToEnd":       "Publish, then read (Build, then a subscriber's read-all of the published bytes)",
	"ProtoMarshal":   "Protobuf wire marshal (from each library's in-memory form)",
	"ProtoUnmarshal": "Protobuf wire unmarshal (into a reused message)",
	"ROSMarshal":     "ROS1 marshal (message body)",
	"ROSUnmarshal":   "ROS1 unmarshal (into a reused message)",
	"Transcode":      "Protobuf wire → ROS1",
}

// goal is one of issue 12's targets: phaser's time over a peer's, at most
// max[shape] (a shape without a bound shows the ratio without a verdict).
// lib is the phaser row measured ("" is phaser).
type goal struct {
	op, peer string
	max      map[string]float64
	text     string
	lib      string
}

func every(x float64) map[string]float64 {
	m := map[string]float64{}
	for _, s := range bench.Shapes {
		m[s] = x
	}
	return m
}

var goals = []goal{
	{"Build", "vtproto", map[string]float64{"small": 0.8, "header": 0.8, "imu": 0.5, "cloud": 0.5},
		"build+publish ≤ 0.8× vtprotobuf marshal (small, header), ≤ 0.5× (imu, cloud)", ""},
	{"Build", "vtproto", map[string]float64{"small": 0.8, "header": 0.8, "imu": 0.5, "cloud": 0.5},
		"the same, phaser-refill (the built message refilled without Clear, as vtprotobuf's Build refills its struct)", "phaser-refill"},
	{"Build", "vtproto", map[string]float64{"small": 0.8, "header": 0.8, "imu": 0.5},
		"the same, phaser-assign (the generated Assign: Clear and every setter in one call)", "phaser-assign"},
	{"Build", "vtproto", map[string]float64{"small": 0.8},
		"the same, build-floor (phaser's Clear and setters hand-written in one straight line: the floor of the row above)", "build-floor"},
	{"EndToEnd", "vtproto", every(0.5), "publish-then-read ≤ 0.5× vtprotobuf marshal+unmarshal", ""},
	{"EndToEnd", "vtproto", every(0.5), "the same, phaser-refill", "phaser-refill"},
	{"EndToEnd", "vtproto", map[string]float64{"small": 0.5, "header": 0.5, "imu": 0.5}, "the same, phaser-assign", "phaser-assign"},
	{"ReadOne", "flatbuffers", every(1.2), "read-one ≤ 1.2× flatbuffers", ""},
	{"ReadOne", "flatbuffers-safe", every(1.2), "read-one ≤ 1.2× flatbuffers-safe (verifier-free read made crash-safe)", ""},
	{"ReadOne", "flatbuffers", map[string]float64{"small": 1.2, "header": 1.2},
		"the same, read-floor (phaser's checks hand-written, without a Payload: the floor of phaser's read)", "read-floor"},
	{"ReadAll", "flatbuffers", every(1.0), "read-all ≤ 1.0× flatbuffers", ""},
	{"ReadAll", "flatbuffers-safe", every(1.0), "read-all ≤ 1.0× flatbuffers-safe", ""},
	{"ReadAll", "flatbuffers", map[string]float64{"small": 1.0, "header": 1.0}, "the same, read-floor", "read-floor"},
	{"ProtoMarshal", "vtproto", every(1.0), "protobuf marshal from the payload ≤ 1.0× vtprotobuf", ""},
	{"ProtoUnmarshal", "vtproto", every(1.0), "protobuf unmarshal ≤ 1.0× vtprotobuf", ""},
	{"ROSMarshal", "goroslib", every(0.05), "ROS1 marshal ≤ 0.05× goroslib", ""},
	{"ROSMarshal", "ros1-floor", every(1.5), "ROS1 marshal ≤ 1.5× the hand-written floor (ros1-floor)", ""},
}

// allocLibs are the phaser rows whose hot paths must not allocate
// (phaser-new allocates its Payload by design).
var allocLibs = []string{"phaser", "phaser-v2", "phaser-ros", "phaser-refill", "phaser-assign", "phaser-ros-assign"}

func main() {
	statsPath := flag.String("stats", "results/stats.csv", "benchstat -format csv output of every binary's runs together")
	rawPath := flag.String("raw", "results/raw.txt", "go test -bench output of every binary's runs together (for its header)")
	binPath := flag.String("binaries", "results/binaries.txt", "the run's test binaries: name<TAB>layout<TAB>raw output, a line each")
	outPath := flag.String("out", "RESULTS.md", "markdown output")
	svgPath := flag.String("svg", "results.svg", "SVG chart output")
	findings := flag.String("findings", "FINDINGS.md", "hand-written analysis to include, if present")
	extra := flag.String("sections", "results/channel.md,results/rosnode.md", "markdown sections other suites write, included when present")
	count := flag.String("count", "?", "the -count of the run (passes of each binary)")
	command := flag.String("command", "COUNT=3 ./run", "the command that made the run")
	flag.Parse()

	f, err := os.Open(*statsPath)
	if err != nil {
		log.Fatal(err)
	}
	pooled, procs, err := parseStats(f)
	f.Close()
	if err != nil {
		log.Fatal(err)
	}
	raw, header, err := parseRaw(*rawPath)
	if err != nil {
		log.Fatal(err)
	}
	bins, err := readBinaries(*binPath)
	if err != nil {
		log.Fatal(err)
	}

	var md strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&md, format, args...) }
	w("# phaser-go benchmarks\n\n")
	w("Generated by `bench/run` (`go run ./cmd/report`); the chart is [results.svg](results.svg). ")
	w("The suite ran as %d separately linked test binaries of the same source (%s), ", len(bins), binList(bins))
	w("their runs interleaved; the goals are reported from each binary, because code placement alone moves single rows by 30-40%%. ")
	w("Each cell of the results tables is the time relative to the fastest library for that operation and shape (1.00× is the fastest), ")
	w("then the benchstat medians over every run of every binary, with their 95%% confidence intervals, of the CPU time per op (`cpu-ns/op`: ")
	w("user+system time of the process over the timed loop, GC included) and of the wall time per op (`ns/op`), and allocations per op. ")
	w("Ratios and goals use the CPU time: other jobs may share the cores while the suite runs, which inflates wall time ")
	w("by whatever share of the CPU the benchmark did not get, but CPU time far less. ")
	w("Lower is better. Raw numbers: `results/raw-<binary>.txt`, `results/benchstat.txt`, `results/placement.txt`.\n\n")
	w("**flatbuffers-go does not verify what it reads.** Its Go runtime has no verifier: a read trusts the offsets in the bytes, ")
	w("and corrupted or hostile bytes make it panic (index out of range), where phaser's reads check every offset against the received ")
	w("length and every table against the compiled one. The `flatbuffers-safe` rows are flatbuffers' reads under a deferred `recover`, ")
	w("the cheapest way to make them crash-safe (`TestFlatbuffersSafe`); the read goals are reported against both rows.\n\n")
	w("| | |\n| --- | --- |\n")
	w("| report written | %s |\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	w("| command | `%s` (in bench/) |\n", *command)
	w("| Go | %s %s/%s |\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	w("| CPU (cpuid) | %s; %d physical / %d logical cores, family %d model %d, L1d %d KiB, L2 %d KiB, L3 %d KiB |\n",
		cpuid.CPU.BrandName, cpuid.CPU.PhysicalCores, cpuid.CPU.LogicalCores, cpuid.CPU.Family, cpuid.CPU.Model,
		cpuid.CPU.Cache.L1D/1024, cpuid.CPU.Cache.L2/1024, cpuid.CPU.Cache.L3/1024)
	w("| CPU (go test) | %s |\n", header["cpu"])
	w("| GOMAXPROCS | %s (benchmark name suffix); this machine: %d |\n", procs, runtime.GOMAXPROCS(0))
	w("| binaries | %s |\n", binTable(bins))
	if h := raw[key{"Harness", "Build", "empty"}]; h != nil && h.live > 0 {
		w("| live heap | %.0f MiB while the benchmarks ran (the value sets and reference bytes); GOGC=%s |\n", h.live, gogc())
	}
	w("| -count | %s passes of each binary, interleaved, -benchmem |\n\n", *count)

	writeGoals(w, pooled, bins)
	writePlacement(w, bins)
	writeHarness(w, pooled, bins)
	writeBytes(w)

	// Per op tables.
	w("## Results\n\n")
	for _, op := range bench.Ops {
		libs := libsOf(pooled, op)
		if len(libs) == 0 {
			continue
		}
		w("### %s\n\n%s.\n\n| lib |", op, opTitle[op])
		for _, s := range bench.Shapes {
			w(" %s |", s)
		}
		w("\n| --- |%s\n", strings.Repeat(" --- |", len(bench.Shapes)))
		for _, lib := range libs {
			w("| %s |", lib)
			for _, s := range bench.Shapes {
				st := pooled[key{op, s, lib}]
				if st == nil || !st.ok {
					w(" – |")
					continue
				}
				r := st.t() / fastest(pooled, op, s)
				cell := fmt.Sprintf("%.2f×", r)
				if r < 1.005 {
					cell = "**" + cell + "**"
				}
				cpu := ""
				if st.cpu > 0 {
					cpu = fmt.Sprintf("cpu %s%s, ", fmtNs(st.cpu), fmtCI(st.cpuCI))
				}
				w(" %s %swall %s%s, %s allocs |", cell, cpu, fmtNs(st.sec), fmtCI(st.secCI), strconv.FormatFloat(st.allocs, 'f', -1, 64))
			}
			w("\n")
		}
		w("\n")
	}
	for _, p := range strings.Split(*extra, ",") {
		if b, err := os.ReadFile(p); err == nil && len(strings.TrimSpace(string(b))) > 0 {
			w("%s\n", strings.TrimRight(string(b), "\n")+"\n")
		} else if err == nil || !os.IsNotExist(err) {
			log.Printf("%s: %v (left out)", p, err)
		}
	}
	if b, err := os.ReadFile(*findings); err == nil {
		w("%s", b)
	}
	if err := os.WriteFile(*outPath, []byte(md.String()), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*svgPath, []byte(chart(pooled)), 0o644); err != nil {
		log.Fatal(err)
	}
}

func gogc() string {
	if v := os.Getenv("GOGC"); v != "" {
		return v
	}
	return "100 (default)"
}

func binList(bins []binary) string {
	var s []string
	for _, b := range bins {
		s = append(s, b.name)
	}
	return strings.Join(s, ", ")
}

func binTable(bins []binary) string {
	var s []string
	for _, b := range bins {
		s = append(s, fmt.Sprintf("%s: %s", b.name, b.layout))
	}
	return strings.Join(s, "; ")
}

// writeGoals writes the goals table: each cell is the ratio in every
// binary; a verdict holds only if every binary agrees.
func writeGoals(w func(string, ...any), pooled stats, bins []binary) {
	w("## Goals\n\n")
	w("phaser's CPU time over the peer's (medians), in each binary (%s); ✅ met in every binary, ❌ missed in every binary, ", binList(bins))
	w("⚠️ flips (met in one binary, missed in another: not a verdict), with the widest spread of one of its two rows' passes within one binary (slowest pass over fastest): ")
	w("a flip whose spread is as wide as the gap between the binaries is the machine's noise, not code placement; a ratio without a mark is a shape the goal does not cover.\n\n")
	w("| goal |")
	for _, s := range bench.Shapes {
		w(" %s |", s)
	}
	w("\n| --- |%s\n", strings.Repeat(" --- |", len(bench.Shapes)))
	for _, g := range goals {
		w("| %s |", g.text)
		for _, s := range bench.Shapes {
			var rs []string
			met, missed := 0, 0
			spread := 0.0 // the widest pass spread of the two rows in any binary
			for _, b := range bins {
				lib := g.lib
				if lib == "" {
					lib = "phaser"
				}
				p, q := b.stats[key{g.op, s, lib}], b.stats[key{g.op, s, g.peer}]
				if p == nil || q == nil || !p.ok || !q.ok || q.t() == 0 {
					continue
				}
				r := p.t() / q.t()
				rs = append(rs, fmtRatio(r))
				spread = max(spread, p.spread, q.spread)
				if m, ok := g.max[s]; ok {
					if r <= m {
						met++
					} else {
						missed++
					}
				}
			}
			switch {
			case len(rs) == 0:
				w(" – |")
			case met > 0 && missed > 0:
				w(" ⚠️ %s flips%s |", strings.Join(rs, " / "), fmtSpread(spread))
			case met > 0:
				w(" ✅ %s |", strings.Join(rs, " / "))
			case missed > 0:
				w(" ❌ %s |", strings.Join(rs, " / "))
			default:
				w(" %s |", strings.Join(rs, " / "))
			}
		}
		w("\n")
	}
	w("| 0 allocs on every phaser hot path (%s) |", strings.Join(allocLibs, ", "))
	for _, s := range bench.Shapes {
		var bad []string
		for _, lib := range allocLibs {
			for _, op := range bench.Ops {
				if st := pooled[key{op, s, lib}]; st != nil && st.allocs > 0 {
					bad = append(bad, fmt.Sprintf("%s %s %.0f", lib, op, st.allocs))
				}
			}
		}
		if len(bad) == 0 {
			w(" ✅ |")
		} else {
			w(" ❌ %s |", strings.Join(bad, ", "))
		}
	}
	w("\n\n")
}

func fmtRatio(r float64) string {
	if r < 0.1 {
		return fmt.Sprintf("%.3f×", r)
	}
	return fmt.Sprintf("%.2f×", r)
}

// fmtSpread formats a flip's pass spread (stat.spread): empty when the
// binaries had one pass each.
func fmtSpread(spread float64) string {
	if spread == 0 {
		return ""
	}
	return fmt.Sprintf(" (passes %.0f%% apart)", 100*spread)
}

// writePlacement lists the rows whose time differs most between the
// binaries: the same code, placed differently.
func writePlacement(w func(string, ...any), bins []binary) {
	if len(bins) < 2 {
		return
	}
	type moved struct {
		k      key
		spread float64 // slowest binary over fastest, minus 1
		ts     []float64
	}
	var all []moved
	for k, st := range bins[0].stats {
		if k.op == "Harness" || !st.ok {
			continue
		}
		m := moved{k: k}
		for _, b := range bins {
			if s := b.stats[k]; s != nil && s.ok && s.t() > 0 {
				m.ts = append(m.ts, s.t())
			}
		}
		if len(m.ts) != len(bins) {
			continue
		}
		m.spread = slices.Max(m.ts)/slices.Min(m.ts) - 1
		all = append(all, m)
	}
	slices.SortFunc(all, func(a, b moved) int {
		if a.spread != b.spread {
			if a.spread > b.spread {
				return -1
			}
			return 1
		}
		return strings.Compare(fmt.Sprint(a.k), fmt.Sprint(b.k))
	})
	n10, n20 := 0, 0
	for _, m := range all {
		if m.spread > 0.10 {
			n10++
		}
		if m.spread > 0.20 {
			n20++
		}
	}
	w("## Code placement\n\n")
	w("The same source linked %d ways (%s): of %d rows, %d differ by more than 10%% between the binaries' medians and %d by more than 20%% ",
		len(bins), binTable(bins), len(all), n10, n20)
	w("(part of it is the noise of a shared machine: compare the spread of rows that are the same code, such as flatbuffers' and ")
	w("flatbuffers-safe's Build). The 20 that moved most (`results/placement.txt` has benchstat's comparison of every row):\n\n")
	w("| row |")
	for _, b := range bins {
		w(" %s |", b.name)
	}
	w(" spread |\n| --- |%s --- |\n", strings.Repeat(" --- |", len(bins)))
	for i, m := range all {
		if i == 20 || m.spread <= 0.05 {
			break
		}
		w("| %s/%s/%s |", m.k.op, m.k.shape, m.k.lib)
		for _, t := range m.ts {
			w(" %s |", fmtNs(t))
		}
		w(" %+.0f%% |\n", 100*m.spread)
	}
	w("\n")
}

// writeHarness writes the cost of the measured loop alone.
func writeHarness(w func(string, ...any), pooled stats, bins []binary) {
	w("## The harness\n\n")
	w("`BenchmarkHarness/<op>/empty`: each operation's loop with codec functions that do nothing, so the CPU time of the loop itself: ")
	w("one indirect call of the codec function an iteration (two for EndToEnd), the value index wrapped by a compare (no modulo), the result summed. ")
	w("Every library's row of the operation pays it once, and nothing else of the harness (`internal/opsgen`: every codec calls its ")
	w("library directly). The last column is its share of the fastest phaser row of the operation.\n\n")
	w("| op | cpu-ns/op |")
	for _, b := range bins {
		w(" %s |", b.name)
	}
	w(" share of phaser's fastest row |\n| --- | --- |%s --- |\n", strings.Repeat(" --- |", len(bins)))
	for _, op := range bench.Ops {
		h := pooled[key{"Harness", op, "empty"}]
		if h == nil || !h.ok {
			continue
		}
		w("| %s | %.2f |", op, h.t())
		for _, b := range bins {
			if s := b.stats[key{"Harness", op, "empty"}]; s != nil && s.ok {
				w(" %.2f |", s.t())
			} else {
				w(" – |")
			}
		}
		best := math.Inf(1)
		for _, s := range bench.Shapes {
			if st := pooled[key{op, s, "phaser"}]; st != nil && st.ok {
				best = min(best, st.t())
			}
		}
		if math.IsInf(best, 1) {
			w(" – |\n")
		} else {
			w(" %.1f%% |\n", 100*h.t()/best)
		}
	}
	w("\n")
}

// writeBytes writes what each library publishes per message: the bytes
// Build returns, averaged over the shape's values.
func writeBytes(w func(string, ...any)) {
	w("## Bytes published per message\n\n")
	w("What Build returns (the bytes a publisher sends), averaged over each shape's values: phaser's payload as it lies in its buffer ")
	w("(the header, the tables of the types it holds, the messages, strings and vectors as blocks), protobuf's wire bytes, ")
	w("FlatBuffers' and Cap'n Proto's buffers (Cap'n Proto with its 8-byte stream frame), goroslib's ROS1 message body ")
	w("(TCPROS adds a 4-byte length).\n\n")
	w("| lib |")
	for _, s := range bench.Shapes {
		w(" %s |", s)
	}
	w("\n| --- |%s\n", strings.Repeat(" --- |", len(bench.Shapes)))
	for _, lib := range bench.Libs {
		if lib == "flatbuffers-safe" { // flatbuffers' bytes
			continue
		}
		var cells []string
		any := false
		for _, s := range bench.Shapes {
			if !bench.Takes(lib, s, "Build") {
				cells = append(cells, "–")
				continue
			}
			c := bench.NewCodec(lib, s)
			total := 0
			for i := range bench.N(s) {
				total += len(c.Build(i))
			}
			cells = append(cells, fmtBytes(float64(total)/float64(bench.N(s))))
			any = true
		}
		if any {
			w("| %s | %s |\n", lib, strings.Join(cells, " | "))
		}
	}
	w("\n")
}

func libsOf(st stats, op string) []string {
	var out []string
	for _, lib := range bench.Libs {
		for _, s := range bench.Shapes {
			if x := st[key{op, s, lib}]; x != nil && x.ok {
				out = append(out, lib)
				break
			}
		}
	}
	return out
}

func fastest(st stats, op, shape string) float64 {
	best := math.Inf(1)
	for k, x := range st {
		if k.op == op && k.shape == shape && x.ok && x.t() < best {
			best = x.t()
		}
	}
	return best
}
