"""Bazel rules for Phaser handles: Go libraries generated from proto_library.

    load("@phaser_go//protoc-gen-phaser-go:phaser_go_library.bzl", "phaser_go_library")

    phaser_go_library(
        name = "foo_phaser",
        protos = [":foo_proto"],  # option go_package = "example.com/foopb";
        importpath = "example.com/foopb/foopbphaser",
        deps = [":bar_phaser"],   # the handles of the .proto files foo.proto imports
    )

The handles of a file whose go_package is example.com/foopb are the Go
package example.com/foopb/foopbphaser (the plugin's package_suffix option,
default "phaser", names the last element), and that is the library's
importpath: it differs from the protoc-gen-go library of the same files
(go_proto_library with importpath example.com/foopb), so one Go target can
depend on both. The plugin checks the importpath against go_package and
fails the build, naming the right one, when they disagree.
"""

load("@io_bazel_rules_go//proto:compiler.bzl", "go_proto_compiler")
load("@io_bazel_rules_go//proto:def.bzl", "go_proto_library")

# The packages that generated handles import: the compiler's deps.
PHASER_GO_DEPS = [
    Label("//proto"),
    Label("//ros"),
    Label("//runtime"),
    Label("//runtime/phaserimpl"),
    Label("//types/known/durationpbphaser"),
    Label("//types/known/emptypbphaser"),
    Label("//types/known/timestamppbphaser"),
    Label("//types/known/wrapperspbphaser"),
    Label("@org_golang_google_protobuf//reflect/protoreflect"),
]

# rules_go's go_proto_library passes each library's importpath to the
# plugin as M<file>=<importpath>: with import_mapping=handles the plugin
# reads it as the handles' package.
_IMPORT_MAPPING = "import_mapping=handles"

def phaser_go_compiler(name, options = [], **kwargs):
    """A go_proto_compiler that runs protoc-gen-phaser-go.

    Use it in go_proto_library(compilers = [...]) with importpath set to the
    handles' package, or through phaser_go_library.

    Args:
      name: the compiler's name.
      options: plugin options, such as "frontend=ros", "ros_metadata=true",
        "protogo=true" or "package_suffix=ph".
      **kwargs: passed to go_proto_compiler (visibility, ...).
    """
    go_proto_compiler(
        name = name,
        plugin = Label("//protoc-gen-phaser-go"),
        options = [_IMPORT_MAPPING] + options,
        suffix = ".phaser.go",
        valid_archive = True,
        deps = PHASER_GO_DEPS,
        **kwargs
    )

def phaser_go_library(name, protos, importpath, deps = [], options = [], **kwargs):
    """A Go library of the Phaser handles of protos.

    Args:
      name: the library's name; Go targets depend on it as on a go_library.
      protos: proto_library targets whose files get handles (one Go
        package: the files share a go_package).
      importpath: the handles' Go package, <go_package>/<name><suffix>
        (example.com/foopb/foopbphaser for go_package example.com/foopb).
      deps: the handles (phaser_go_library targets) of the files protos
        import, except the well-known types, whose handles ship with
        phaser-go; with options = ["protogo=true"], also the protoc-gen-go
        go_proto_library of protos (its FromProto/ToProto convert to it).
      options: plugin options (see phaser_go_compiler); each library with
        options gets a compiler of its own, <name>_compiler.
      **kwargs: passed to go_proto_library (visibility, tags, ...).
    """
    if options:
        compiler = name + "_compiler"
        phaser_go_compiler(
            name = compiler,
            options = options,
            visibility = ["//visibility:private"],
            tags = kwargs.get("tags"),
        )
        compilers = [":" + compiler]
    else:
        compilers = [Label("//protoc-gen-phaser-go:phaser_go_compiler")]
    go_proto_library(
        name = name,
        compilers = compilers,
        importpath = importpath,
        protos = protos,
        deps = deps,
        **kwargs
    )
