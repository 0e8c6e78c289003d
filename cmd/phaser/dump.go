package main

import (
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/phaser-go/phaser/runtime"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	if s == "" {
		return fmt.Errorf("empty value")
	}
	*l = append(*l, s)
	return nil
}

// dumpConfig is the parsed command line of dump.
type dumpConfig struct {
	includes      []string
	protos        []string
	descriptorSet string
	typeName      string
	format        string
	protoc        string
	payload       string // "" or "-": standard input
}

// parseDump parses the arguments of dump. Flags and the payload file may be
// interleaved; "-Idir" is accepted for "-I dir".
func parseDump(args []string, stdout io.Writer) (*dumpConfig, error) {
	cfg := &dumpConfig{}
	fs := flag.NewFlagSet("phaser dump", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var((*listFlag)(&cfg.includes), "I", "import `directory` for protoc (repeatable)")
	fs.Var((*listFlag)(&cfg.protos), "proto", "`file.proto` to compile (repeatable; default: all under the -I directories)")
	fs.StringVar(&cfg.descriptorSet, "descriptor_set", "", "FileDescriptorSet `file` (instead of -I/-proto)")
	fs.StringVar(&cfg.typeName, "type", "", "full name of the root message `type` (required)")
	fs.StringVar(&cfg.format, "format", "text", "output `format`: text, json or hex")
	fs.StringVar(&cfg.protoc, "protoc", "protoc", "protoc `binary`")
	var positional []string
	rest := normalizeIncludes(args)
	for {
		if err := fs.Parse(rest); err != nil {
			if err == flag.ErrHelp {
				fmt.Fprint(stdout, usageText+"\ndump flags:\n")
				fs.SetOutput(stdout)
				fs.PrintDefaults()
				return nil, errHelp
			}
			return nil, usagef("dump: %v", err)
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		// "-" (stdin) and file names; the flag package stops at them.
		positional = append(positional, rest[0])
		rest = rest[1:]
	}
	switch {
	case len(positional) > 1:
		return nil, usagef("dump: more than one payload file: %s", strings.Join(positional, " "))
	case cfg.typeName == "":
		return nil, usagef("dump: -type is required")
	case cfg.descriptorSet == "" && len(cfg.includes) == 0 && len(cfg.protos) == 0:
		return nil, usagef("dump: no schema: give -descriptor_set or -I directories (and -proto files)")
	case cfg.descriptorSet != "" && (len(cfg.includes) > 0 || len(cfg.protos) > 0):
		return nil, usagef("dump: -descriptor_set excludes -I and -proto")
	}
	switch cfg.format {
	case "text", "json", "hex":
	default:
		return nil, usagef("dump: unknown -format %q (want text, json or hex)", cfg.format)
	}
	if len(positional) == 1 {
		cfg.payload = positional[0]
	}
	return cfg, nil
}

// normalizeIncludes rewrites protoc-style "-Idir" into "-I" "dir".
func normalizeIncludes(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if v, ok := strings.CutPrefix(a, "-I"); ok && v != "" && v[0] != '=' {
			out = append(out, "-I", v)
			continue
		}
		out = append(out, a)
	}
	return out
}

func dump(args []string, stdin io.Reader, stdout io.Writer) error {
	cfg, err := parseDump(args, stdout)
	if err != nil {
		return err
	}
	var files *protoregistry.Files
	if cfg.descriptorSet != "" {
		files, err = loadDescriptorSet(cfg.descriptorSet)
	} else {
		files, err = compileProtos(cfg.protoc, cfg.includes, cfg.protos)
	}
	if err != nil {
		return err
	}
	md, err := findMessage(files, cfg.typeName)
	if err != nil {
		if cfg.descriptorSet == "" && len(cfg.protos) > 0 {
			// Only the -proto files and their imports were compiled.
			return fmt.Errorf("%w (read from %s and what it imports: name the file that declares it with -proto, or leave -proto out to read every .proto under the -I directories)", err, strings.Join(cfg.protos, ", "))
		}
		return err
	}
	data, err := readPayload(cfg.payload, stdin)
	if err != nil {
		return err
	}
	out, err := dumpBytes(files, md, data, cfg.format)
	if err != nil {
		return err
	}
	_, err = stdout.Write(out)
	return err
}

// dumpBytes formats the payload data, whose root message is md, in format.
func dumpBytes(files *protoregistry.Files, md protoreflect.MessageDescriptor, data []byte, format string) ([]byte, error) {
	typ, err := runtime.TypeOf(md)
	if err != nil {
		return nil, err
	}
	// Register every type of the schema, so that Any values resolve.
	eachMessage(files, func(d protoreflect.MessageDescriptor) { _, _ = runtime.TypeOf(d) })
	m, err := runtime.Read(typ, data)
	if err != nil {
		return nil, err
	}
	msg, err := m.ToProto()
	if err != nil {
		return nil, fmt.Errorf("converting %s: %w", md.FullName(), err)
	}
	res := resolver{dynamicpb.NewTypes(files)}
	var out []byte
	switch format {
	case "json":
		out, err = protojson.MarshalOptions{Multiline: true, Indent: "  ", AllowPartial: true, Resolver: res}.Marshal(msg)
	case "hex":
		var wire []byte
		wire, err = proto.MarshalOptions{Deterministic: true, AllowPartial: true}.Marshal(msg)
		out = []byte(hex.Dump(wire))
	default:
		out, err = prototext.MarshalOptions{Multiline: true, Indent: "  ", AllowPartial: true, Resolver: res}.Marshal(msg)
	}
	if err != nil {
		return nil, fmt.Errorf("formatting %s as %s: %w", md.FullName(), format, err)
	}
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return out, nil
}

// resolver finds types in the schema, then among the types linked into the
// program.
type resolver struct{ types *dynamicpb.Types }

func (r resolver) FindMessageByName(n protoreflect.FullName) (protoreflect.MessageType, error) {
	if t, err := r.types.FindMessageByName(n); err == nil {
		return t, nil
	}
	return protoregistry.GlobalTypes.FindMessageByName(n)
}

func (r resolver) FindMessageByURL(url string) (protoreflect.MessageType, error) {
	if t, err := r.types.FindMessageByURL(url); err == nil {
		return t, nil
	}
	return protoregistry.GlobalTypes.FindMessageByURL(url)
}

func (r resolver) FindExtensionByName(n protoreflect.FullName) (protoreflect.ExtensionType, error) {
	if t, err := r.types.FindExtensionByName(n); err == nil {
		return t, nil
	}
	return protoregistry.GlobalTypes.FindExtensionByName(n)
}

func (r resolver) FindExtensionByNumber(m protoreflect.FullName, n protoreflect.FieldNumber) (protoreflect.ExtensionType, error) {
	if t, err := r.types.FindExtensionByNumber(m, n); err == nil {
		return t, nil
	}
	return protoregistry.GlobalTypes.FindExtensionByNumber(m, n)
}
