// Package formatdoc keeps the worked examples of docs/format.md true: its
// test builds each example with phaser-go (generated handles, the runtime,
// the payload buffer, the wire encoders), annotates the bytes by reading
// them back as a second, independent reader of the format would, and
// compares the result with the text between the example's markers in
// docs/format.md.
//
// After a change that moves payload bytes on purpose, regenerate the
// examples and read the diff:
//
//	go test ./internal/formatdoc -update
//
// The package has no API; everything is in its test.
package formatdoc
