// Command phaser inspects Phaser payloads (the C++ Phaser byte layout, see
// the project's layout specification).
//
// Usage:
//
//	phaser dump [-I dir]... [-proto file.proto]... [-descriptor_set file.pb]
//	            -type pkg.Msg [-format text|json|hex] [-protoc path]
//	            [payload-file|-]
//	phaser info payload-file|-
//	phaser help
//
// dump prints the content of a payload whose root message is -type:
//
//   - text (the default): protobuf text format, one field per line;
//   - json: protobuf JSON, indented;
//   - hex: a hex dump (offset, bytes, ASCII) of the deterministic protobuf
//     wire encoding of the content.
//
// google.protobuf.Any values are expanded when the type they hold is in
// the schema.
//
// The schema comes either from a FileDescriptorSet (-descriptor_set, as
// written by protoc --descriptor_set_out; --include_imports is recommended,
// the well-known types are found without it), or from .proto files that
// dump compiles by running protoc (found in $PATH, or -protoc) with
// --include_imports and the -I directories. The files compiled are those
// named by -proto (paths relative to an -I directory or to the working
// directory); without -proto, every .proto file under the -I directories.
// -I dir may also be written -Idir or -I=dir. Flags and the payload file may
// come in any order. The payload is read from the file, or from standard
// input when it is "-" or absent.
//
// info prints the buffer header of a payload without needing its schema:
// format (v2 = C++ Phaser 2.x, v3 = Phaser 3), fixed or movable buffer,
// allocator tuning, high-water mark, full_size, root message offset and its
// field table, the free list blocks, the small-block allocator slots and the
// runtime control block entries (type names and table offsets for control
// block v1, name hashes for v2). Every offset is checked against the bytes
// actually read; out-of-range values are reported, not followed.
//
// phaser never trusts the payload: malformed bytes give an error or fields
// read as absent, never a crash. The exit status is 0 on success, 1 on an
// error (unreadable file, not a payload, unknown type, protoc failure) and 2
// on a usage error.
//
// Examples:
//
//	phaser dump -I protos -I /usr/include -type oracle.core.Scalars msg.phaser.bin
//	protoc --include_imports --descriptor_set_out=schema.pb -I protos oracle/OracleCore.proto
//	phaser dump -descriptor_set schema.pb -type oracle.core.Scalars -format json < msg.phaser.bin
//	phaser info msg.phaser.bin
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

const usageText = `usage:
  phaser dump [-I dir]... [-proto file.proto]... [-descriptor_set file.pb]
              -type pkg.Msg [-format text|json|hex] [-protoc path] [payload-file|-]
  phaser info payload-file|-
  phaser help
`

// usageError is an error in the command line (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// errHelp reports that help was printed as asked (exit status 0).
var errHelp = errors.New("help requested")

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// run runs the command with arguments args (without the program name) and
// returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return exitUsage
	}
	var err error
	switch cmd, rest := args[0], args[1:]; cmd {
	case "dump":
		err = dump(rest, stdin, stdout)
	case "info":
		err = info(rest, stdin, stdout)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usageText)
		return exitOK
	default:
		err = usagef("unknown command %q", cmd)
	}
	if err == nil || errors.Is(err, errHelp) {
		return exitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		if ue.msg != "" {
			fmt.Fprintf(stderr, "phaser: %s\n", ue.msg)
		}
		fmt.Fprint(stderr, usageText)
		return exitUsage
	}
	fmt.Fprintf(stderr, "phaser %s: %v\n", args[0], err)
	return exitError
}

// readPayload reads the named file, or stdin for "-" or "".
func readPayload(name string, stdin io.Reader) ([]byte, error) {
	if name == "" || name == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		return b, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return b, nil
}
