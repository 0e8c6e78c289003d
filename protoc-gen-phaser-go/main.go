// Command protoc-gen-phaser-go is a protoc plugin that generates Go message
// handles over Phaser payloads: zero-copy protobuf messages whose bytes are
// the C++ Phaser runtime's.
//
//	protoc --phaser-go_out=. --phaser-go_opt=paths=source_relative foo.proto
//
// Parameters: paths, module and M (as protoc-gen-go), package_suffix
// (default phaser: handles for go_package example.com/foopb go to
// example.com/foopb/foopbphaser), frontend=protobuf|ros, ros_metadata.
package main

import (
	"fmt"
	"os"

	"google.golang.org/protobuf/compiler/protogen"

	"github.com/phaser-go/phaser/protoc-gen-phaser-go/internal/gen"
)

func main() {
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-version") {
		fmt.Println("protoc-gen-phaser-go", gen.Version)
		return
	}
	if len(os.Args) > 1 {
		fmt.Fprintln(os.Stderr, "protoc-gen-phaser-go: a protoc plugin; run it through protoc --phaser-go_out=DIR (or --version)")
		os.Exit(2)
	}
	var opts gen.Options
	protogen.Options{ParamFunc: opts.Set}.Run(func(p *protogen.Plugin) error { return gen.Run(p, opts) })
}
