// Command knowndescriptors writes a FileDescriptorSet (binary protobuf) of
// well-known .proto files as protobuf-go links them, with their imports, to
// standard output, with the comments of a compilation of their sources:
//
//	protoc -I /usr/include --include_source_info -o src.binpb google/protobuf/type.proto
//	go run ./internal/cmd/knowndescriptors -comments src.binpb google/protobuf/type.proto >set.binpb
//	protoc --descriptor_set_in=set.binpb --phaser-go_out=. google/protobuf/type.proto
//
// scripts/generate uses it for type.proto and api.proto (see package
// internal/knowndesc for why).
package main

import (
	"flag"
	"fmt"
	"os"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/phaser-go/phaser/internal/knowndesc"
)

func main() {
	comments := flag.String("comments", "", "a FileDescriptorSet with source info whose comments the files take")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: knowndescriptors [-comments set.binpb] file.proto... >set.binpb")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*comments, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "knowndescriptors:", err)
		os.Exit(1)
	}
}

func run(comments string, paths []string) error {
	var src *descriptorpb.FileDescriptorSet
	if comments != "" {
		b, err := os.ReadFile(comments)
		if err != nil {
			return err
		}
		src = &descriptorpb.FileDescriptorSet{}
		if err := proto.Unmarshal(b, src); err != nil {
			return fmt.Errorf("%s: %w", comments, err)
		}
	}
	set, err := knowndesc.Set(paths, src)
	if err != nil {
		return err
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(set)
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(b)
	return err
}
