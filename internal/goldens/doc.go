// Package goldens is test support for the C++ Phaser 2.1 golden payloads.
//
// The golden cases live outside the repository (by default in
// ../shared/goldens and ../shared/goldens_fixed next to the module root, or
// wherever $PHASER_GOLDENS and $PHASER_GOLDENS_FIXED point) and are read at
// test time; they are never copied into the repository. The package is meant
// to be imported only by _test.go files.
//
// It provides:
//
//   - [Dir] and [FixedDir] to locate the two golden sets from a test;
//   - [Manifest] to parse MANIFEST.tsv into typed [Case] rows, and
//     [Case.Read] to load the per-case files;
//   - [Files], [Types] and [Case.Values] to compile the golden schemas with
//     protocompile and decode NAME.txt into a dynamic message, and
//     [MarshalCanonical] to re-encode a message the way libprotobuf does
//     (field-number order), which is what NAME.pbref.bin holds;
//   - [ParseOps], an AST for the C++ statements of NAME.ops, and
//     [Evaluator], which evaluates the pure parts of those statements
//     (literals, Pattern, kBin, casts, arithmetic, the "// i = N" variables)
//     and hands everything that touches a message to caller-supplied hooks,
//     so that a Phaser implementation can replay the operations in order.
package goldens
