package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// stat is one benchmark's medians.
type stat struct {
	sec, cpu, bytes, allocs float64
	live                    float64 // the live heap, MiB (the harness rows)
	// spread is the slowest pass over the fastest, minus 1, of the time
	// ratios are taken on (t), in one binary's raw runs (parseRaw); 0 for
	// one pass.
	spread       float64
	secCI, cpuCI string
	ok           bool
}

// t is the time ratios are taken on: CPU time per op when the run
// recorded it (a shared machine disturbs it far less than wall time), else
// wall time.
func (s *stat) t() float64 {
	if s.cpu > 0 {
		return s.cpu
	}
	return s.sec
}

// key names a benchmark: Benchmark<op>/<shape>/<lib> (the harness:
// BenchmarkHarness/<op>/empty, op "Harness", shape the measured op).
type key struct{ op, shape, lib string }

type stats map[key]*stat

var suffix = regexp.MustCompile(`-\d+$`)

// splitName parses a benchmark name without "Benchmark"; procs is the
// GOMAXPROCS suffix.
func splitName(name string) (k key, procs string, ok bool) {
	parts := strings.Split(name, "/")
	if len(parts) != 3 {
		return key{}, "", false
	}
	lib := parts[2]
	if m := suffix.FindString(lib); m != "" {
		procs = m[1:]
		lib = strings.TrimSuffix(lib, m)
	}
	return key{parts[0], parts[1], lib}, procs, true
}

// parseStats reads benchstat -format csv: blocks of ",unit,CI" headers and
// name,value,CI rows.
func parseStats(r io.Reader) (stats, string, error) {
	out := stats{}
	procs := ""
	unit := ""
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", err
		}
		if len(rec) < 2 {
			continue
		}
		if rec[0] == "" {
			unit = rec[1]
			continue
		}
		k, p, ok := splitName(rec[0])
		if !ok {
			continue
		}
		if p != "" {
			procs = p
		}
		v, err := strconv.ParseFloat(rec[1], 64)
		if err != nil {
			continue
		}
		s := out[k]
		if s == nil {
			s = &stat{}
			out[k] = s
		}
		ci := ""
		if len(rec) > 2 {
			ci = rec[2]
		}
		switch unit {
		case "sec/op":
			s.sec, s.secCI, s.ok = v*1e9, ci, true
		case "cpu-sec/op": // benchstat's name for cpu-ns/op, in seconds
			s.cpu, s.cpuCI = v*1e9, ci
		case "B/op":
			s.bytes = v
		case "allocs/op":
			s.allocs = v
		}
	}
	return out, procs, nil
}

// parseRaw reads go test -bench output and returns each benchmark's
// medians (no confidence intervals) and the header lines (goos, cpu, ...).
func parseRaw(path string) (stats, map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	header := map[string]string{}
	samples := map[key]map[string][]float64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if k, v, ok := strings.Cut(line, ": "); ok && !strings.HasPrefix(line, "Benchmark") {
			header[strings.TrimPrefix(k, "# ")] = v
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		k, _, ok := splitName(strings.TrimPrefix(fields[0], "Benchmark"))
		if !ok {
			continue
		}
		m := samples[k]
		if m == nil {
			m = map[string][]float64{}
			samples[k] = m
		}
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			m[fields[i+1]] = append(m[fields[i+1]], v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	out := stats{}
	for k, m := range samples {
		s := &stat{sec: median(m["ns/op"]), cpu: median(m["cpu-ns/op"]), bytes: median(m["B/op"]), allocs: median(m["allocs/op"]),
			live: median(m["live-MiB"])}
		s.ok = len(m["ns/op"]) > 0
		ts := m["cpu-ns/op"]
		if len(ts) == 0 {
			ts = m["ns/op"]
		}
		if len(ts) > 1 && slices.Min(ts) > 0 {
			s.spread = slices.Max(ts)/slices.Min(ts) - 1
		}
		out[k] = s
	}
	return out, header, nil
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	if n := len(v); n%2 == 1 {
		return v[n/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// binary is one separately linked test binary of the run.
type binary struct {
	name, layout string
	stats        stats
}

// readBinaries reads the run's list of binaries (lines "name<TAB>layout
// <TAB>raw file") and each binary's raw results.
func readBinaries(path string) ([]binary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []binary
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 3 {
			continue
		}
		st, _, err := parseRaw(parts[2])
		if err != nil {
			return nil, err
		}
		out = append(out, binary{name: parts[0], layout: parts[1], stats: st})
	}
	return out, sc.Err()
}
