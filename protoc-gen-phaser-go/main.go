// Command protoc-gen-phaser-go is a protoc plugin that generates Go message
// handles over Phaser payloads: zero-copy protobuf messages whose bytes are
// the C++ Phaser runtime's.
//
//	protoc --phaser-go_out=. --phaser-go_opt=paths=source_relative foo.proto
//
// Parameters: paths, module and M (as protoc-gen-go), package_suffix
// (default phaser: handles for go_package example.com/foopb go to
// example.com/foopb/foopbphaser), frontend=protobuf|ros, ros_metadata,
// protogo, and import_mapping=handles (M names the handles' package, as
// Bazel's go_proto_library passes it).
package main

import (
	"fmt"
	"io"
	"os"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/pluginpb"

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
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "protoc-gen-phaser-go:", err)
		os.Exit(1)
	}
}

// run reads a CodeGeneratorRequest from in and writes the response to out.
func run(in io.Reader, out io.Writer) error {
	b, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	req := new(pluginpb.CodeGeneratorRequest)
	if err := proto.Unmarshal(b, req); err != nil {
		return fmt.Errorf("reading the request: %w", err)
	}
	b, err = proto.Marshal(gen.Generate(req))
	if err != nil {
		return err
	}
	_, err = out.Write(b)
	return err
}
