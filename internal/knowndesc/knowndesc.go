// Package knowndesc gives the descriptors of well-known .proto files as
// protobuf-go links them, for generating their handles.
//
// The handles in types/known must have the layout of the descriptors a Go
// program links (protobuf-go's typepb, apipb, ...). protoc 3.21's sources
// of type.proto and api.proto are older: they lack the edition fields and
// the SYNTAX_EDITIONS value that protobuf-go's descriptors have, all of
// them appended after the older elements. The linked descriptors carry no
// comments, so Set takes them from a compilation of the older sources,
// whose source locations still name the same elements.
package knowndesc

import (
	"fmt"

	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	// The well-known types' descriptors, linked into GlobalFiles.
	_ "google.golang.org/protobuf/types/known/anypb"
	_ "google.golang.org/protobuf/types/known/apipb"
	_ "google.golang.org/protobuf/types/known/durationpb"
	_ "google.golang.org/protobuf/types/known/emptypb"
	_ "google.golang.org/protobuf/types/known/fieldmaskpb"
	_ "google.golang.org/protobuf/types/known/sourcecontextpb"
	_ "google.golang.org/protobuf/types/known/structpb"
	_ "google.golang.org/protobuf/types/known/timestamppb"
	_ "google.golang.org/protobuf/types/known/typepb"
	_ "google.golang.org/protobuf/types/known/wrapperspb"
)

// Set is the descriptor set of the named well-known files and everything
// they import, each file after its imports (as protoc's
// --descriptor_set_in and a plugin request want them). Each file takes the
// source code info (comments) of the file of the same name in comments,
// when comments is not nil and has it.
func Set(paths []string, comments *descriptorpb.FileDescriptorSet) (*descriptorpb.FileDescriptorSet, error) {
	info := map[string]*descriptorpb.SourceCodeInfo{}
	for _, f := range comments.GetFile() {
		info[f.GetName()] = f.GetSourceCodeInfo()
	}
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		imports := fd.Imports()
		for i := range imports.Len() {
			add(imports.Get(i).FileDescriptor)
		}
		f := protodesc.ToFileDescriptorProto(fd)
		f.SourceCodeInfo = info[fd.Path()]
		set.File = append(set.File, f)
	}
	for _, p := range paths {
		fd, err := protoregistry.GlobalFiles.FindFileByPath(p)
		if err != nil {
			return nil, fmt.Errorf("knowndesc: %s: %w (not a well-known file protobuf-go links)", p, err)
		}
		add(fd)
	}
	return set, nil
}
