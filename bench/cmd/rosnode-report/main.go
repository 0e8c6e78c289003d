// Command rosnode-report turns the output of the ROS node benchmarks
// (bench/rosnode, one test binary per library, run interleaved by
// bench/rosnode/run) into a markdown table: per message, peer and mode,
// the median over the runs of each library's message rate, latency and
// allocations, and the ratio of the rates.
//
//	go run ./cmd/rosnode-report -phaser results/rosnode/phaser.txt -goroslib results/rosnode/goroslib.txt -out results/rosnode.md
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"slices"
	"strconv"
	"strings"
)

func main() {
	phaser := flag.String("phaser", "", "benchmark output of the phaser binary")
	goroslib := flag.String("goroslib", "", "benchmark output of the goroslib binary")
	out := flag.String("out", "", "markdown file to write")
	command := flag.String("command", "cd bench && ./rosnode/run", "the command that reproduces the figures")
	notes := flag.String("notes", "", "markdown file of predictions to include before the table")
	flag.Parse()
	p, pinfo, err := parse(*phaser)
	if err != nil {
		log.Fatal(err)
	}
	g, ginfo, err := parse(*goroslib)
	if err != nil {
		log.Fatal(err)
	}
	var b strings.Builder
	write(&b, p, g, pinfo, ginfo, *command)
	if *notes != "" {
		n, err := os.ReadFile(*notes)
		if err != nil {
			log.Fatal(err)
		}
		b.WriteString("\n## Prediction, and what came of it\n\n")
		b.Write(n)
	}
	if err := os.WriteFile(*out, []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}

// runs holds each benchmark's metrics, one value per run, by unit.
type runs map[string]map[string][]float64

// parse reads `go test -bench` output: the header lines (goos, cpu, ...)
// and every Benchmark line.
func parse(file string) (runs, map[string]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := runs{}
	info := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if k, v, ok := strings.Cut(line, ": "); ok && !strings.HasPrefix(line, "Benchmark") && !strings.Contains(k, " ") {
			info[k] = v
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "BenchmarkROSNode/") {
			continue
		}
		name := strings.TrimPrefix(fields[0], "BenchmarkROSNode/")
		if i := strings.LastIndex(name, "-"); i > 0 {
			name = name[:i] // the GOMAXPROCS suffix
		}
		if r[name] == nil {
			r[name] = map[string][]float64{}
		}
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %q: %w", file, line, err)
			}
			r[name][fields[i+1]] = append(r[name][fields[i+1]], v)
		}
	}
	return r, info, sc.Err()
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func write(b *strings.Builder, p, g runs, pinfo, ginfo map[string]string, command string) {
	count := 0
	for _, m := range p {
		count = max(count, len(m["msgs/s"]))
	}
	fmt.Fprintf(b, "# ROS node: phaser-go's ros/node beside goroslib's node\n\n")
	fmt.Fprintf(b, "PROVISIONAL: measured on a shared, loaded 2-core machine; rerun with `%s`.\n\n", command)
	fmt.Fprintf(b, "Machine: %s, %s/%s, Go from the test binaries' build; median of %d interleaved runs of two separately linked test binaries (one per library, `bench/rosnode`, built without and with `-tags goroslib`). Real Debian `rosmaster` and `rospy` on loopback.\n\n",
		pinfo["cpu"], pinfo["goos"], pinfo["goarch"], count)
	b.WriteString(`Each benchmark publishes sensor_msgs/Imu (320 ROS bytes) or a 512 x 512 rgba8 sensor_msgs/Image (1 MiB) and waits for each message to come back: from a Go subscriber's callback in a second node of the same library ("go"), or from a rospy node that answers each message with its seq on an ack topic ("rospy", which makes latency a round trip through rospy). Both libraries do the same work per message: set header.seq and stamp, serialize the whole message, send, decode the whole message. "throughput" keeps 8 messages in flight (under both publishers' queues: nothing is dropped), "latency" one. Allocations are per message over the whole process (both nodes for "go", the publisher and its ack subscriber for "rospy").

| message | to | mode | phaser msgs/s | goroslib msgs/s | phaser / goroslib | phaser p50 / p99 µs | goroslib p50 / p99 µs | phaser allocs/msg | goroslib allocs/msg |
| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
`)
	var names []string
	for _, kind := range []string{"imu", "image"} {
		for _, to := range []string{"go", "rospy"} {
			for _, mode := range []string{"throughput", "latency"} {
				if n := kind + "/" + to + "/" + mode; p[n] != nil || g[n] != nil {
					names = append(names, n)
				}
			}
		}
	}
	for _, n := range names {
		parts := strings.Split(n, "/")
		pm, gm := p[n], g[n]
		pr, gr := median(pm["msgs/s"]), median(gm["msgs/s"])
		ratio := "n/a"
		if gr > 0 {
			ratio = fmt.Sprintf("%.2fx", pr/gr)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %.0f | %.0f | %s | %.0f / %.0f | %.0f / %.0f | %.2f | %.2f |\n",
			parts[0], parts[1], parts[2], pr, gr, ratio,
			median(pm["p50-µs"]), median(pm["p99-µs"]), median(gm["p50-µs"]), median(gm["p99-µs"]),
			median(pm["allocs/op"]), median(gm["allocs/op"]))
	}
	b.WriteString("\nRaw output: `results/rosnode/phaser.txt`, `results/rosnode/goroslib.txt`.\n")
}
