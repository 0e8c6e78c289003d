// Command reflectreport writes results/reflect.md from the raw output of
// run-reflect: for each operation and shape of BenchmarkReflect, the CPU
// time per operation of protobuf-go's structs and of phaser-go's views
// (medians over the passes of each binary), their ratio per binary, and
// the allocations.
//
//	go run ./cmd/reflectreport results/reflect-raw-A.txt results/reflect-raw-B.txt >results/reflect.md
package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

type key struct{ op, shape, lib string }

type sample struct{ ns, cpu, bytes, allocs float64 }

type binary struct {
	name    string
	header  []string
	samples map[key][]sample
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: reflectreport raw-A.txt [raw-B.txt ...]")
		os.Exit(2)
	}
	var bins []*binary
	for _, path := range os.Args[1:] {
		b, err := read(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "reflectreport:", err)
			os.Exit(1)
		}
		bins = append(bins, b)
	}
	write(bins)
}

func read(path string) (*binary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := &binary{name: strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "reflect-raw-"), ".txt"), samples: map[key][]sample{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "# ") {
			b.header = append(b.header, strings.TrimPrefix(line, "# "))
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "BenchmarkReflect/") {
			continue
		}
		name := fields[0][len("BenchmarkReflect/"):]
		if i := strings.LastIndexByte(name, '-'); i >= 0 {
			name = name[:i] // GOMAXPROCS suffix
		}
		parts := strings.Split(name, "/")
		if len(parts) != 3 {
			continue
		}
		var s sample
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			switch fields[i+1] {
			case "ns/op":
				s.ns = v
			case "cpu-ns/op":
				s.cpu = v
			case "B/op":
				s.bytes = v
			case "allocs/op":
				s.allocs = v
			}
		}
		k := key{parts[0], parts[1], parts[2]}
		b.samples[k] = append(b.samples[k], s)
	}
	return b, sc.Err()
}

func median(ss []sample, f func(sample) float64) float64 {
	if len(ss) == 0 {
		return 0
	}
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func cpu(s sample) float64 { return s.cpu }

func ns(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2f ms", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.2f µs", v/1e3)
	}
	return fmt.Sprintf("%.0f ns", v)
}

func write(bins []*binary) {
	p := func(a ...any) { fmt.Println(a...) }
	p("# Protobuf reflection over payloads: provisional figures")
	p()
	p("`protojson.Marshal`, `prototext.Marshal` and `proto.Equal` (of two copies) of one message, through")
	p("phaser-go's reflection view of a payload (`x.ProtoReflect()`: values read from the payload as the")
	p("encoder asks for them) and through protobuf-go's generated struct, on the benchmark shapes'")
	p("first value. `toproto` is the handle's `ToProto()` copy into dynamicpb, then the same call: what a")
	p("program had to do before the view. The read-only view is the same payload read with `ReadX`")
	p("(received bytes: its view first walks the payload, bounding what a hostile one could cost).")
	p("Outputs are checked byte-equal to protobuf-go's first.")
	p()
	p("**Provisional**: measured on a shared, loaded 2-core machine. Times are CPU time per operation")
	p("(`cpu-ns/op`: user + system time of the process, which other jobs disturb far less than wall time),")
	p("medians over the passes of each binary; the ratios are per binary, each binary linked with another")
	p("function layout (code placement alone moves single cells by 30-40%). Rerun on a quiet machine with")
	p()
	p("```sh")
	p("cd bench && ./run-reflect            # COUNT=3 passes, BENCHTIME=1s")
	p("```")
	p()
	for _, b := range bins {
		for _, h := range b.header {
			p("- " + b.name + ": " + h)
		}
	}
	p()
	names := make([]string, len(bins))
	for i, b := range bins {
		names[i] = b.name
	}
	p("| op | shape | protobuf-go | phaser-go view | view / protobuf-go (" + strings.Join(names, ", ") + ") | read-only view / protobuf-go | toproto / view | allocs/op (protobuf-go, view, read-only, toproto) |")
	p("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, op := range []string{"JSON", "Text", "Equal"} {
		for _, shape := range []string{"small", "header", "imu", "cloud"} {
			first := bins[0]
			pbK, phK, roK, tpK := key{op, shape, "protobuf"}, key{op, shape, "phaser"}, key{op, shape, "phaser-read"}, key{op, shape, "phaser-toproto"}
			if len(first.samples[pbK]) == 0 {
				continue
			}
			var ratios, ros, tps []string
			for _, b := range bins {
				pbv, phv, rov, tpv := median(b.samples[pbK], cpu), median(b.samples[phK], cpu), median(b.samples[roK], cpu), median(b.samples[tpK], cpu)
				ratios = append(ratios, fmt.Sprintf("%.2f×", phv/pbv))
				ros = append(ros, fmt.Sprintf("%.2f×", rov/pbv))
				tps = append(tps, fmt.Sprintf("%.2f×", tpv/phv))
			}
			allocs := func(k key) string {
				return fmt.Sprintf("%.0f", median(first.samples[k], func(s sample) float64 { return s.allocs }))
			}
			p(fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s | %s, %s, %s, %s |", op, shape,
				ns(median(first.samples[pbK], cpu)), ns(median(first.samples[phK], cpu)),
				strings.Join(ratios, ", "), strings.Join(ros, ", "), strings.Join(tps, ", "),
				allocs(pbK), allocs(phK), allocs(roK), allocs(tpK)))
		}
	}
	p()
	p("Times in the protobuf-go and view columns are binary " + bins[0].name + "'s.")
}
