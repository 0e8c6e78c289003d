// Command genops writes bench/ops.go (see internal/opsgen): for every
// library and shape, the Codec the benchmarks call.
//
//	go run ./cmd/genops          # from bench/; go generate does the same
package main

import (
	"flag"
	"log"
	"os"

	"github.com/phaser-go/phaser/bench/internal/opsgen"
)

func main() {
	out := flag.String("o", "ops.go", "output file")
	flag.Parse()
	src, err := opsgen.Generate()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
