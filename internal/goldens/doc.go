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
//     protocompile and decode NAME.txt into a dynamic message (its NaNs with
//     the bits of NAME.pbref.bin, which text format loses), and
//     [MarshalCanonical] to re-encode a message the way libprotobuf does
//     (field-number order), which is what NAME.pbref.bin holds;
//   - [ParseOps], an AST for the C++ statements of NAME.ops, and
//     [Evaluator], which evaluates the pure parts of those statements
//     (literals, Pattern, kBin, casts, arithmetic with x86-64's NaNs, the
//     "// i = N" variables) and hands everything that touches a message to
//     caller-supplied hooks, so that a Phaser implementation can replay the
//     operations in order;
//   - [Scope], which resolves the C++ class and enum names of a case
//     ("core::Part", "xph::Color", "::acme::fleet::v1::phaser::Status") to
//     the case's schema by the C++ generator's namespace convention, with
//     nothing about the golden set built in, and
//     [Program.ClearedScalars], which finds the scalars a case clears and
//     does not set again (C++ 2.1 serializes their stale bytes to ROS1).
//
// Nothing here depends on the names of the golden cases: a new case in the
// same notation, over any schema, replays the same way.
package goldens
