//go:build race

package testpbphaser_test

// raceEnabled reports a build with the race detector, where the long
// soak tests run a smaller share of their work (scripts/test runs them in
// full without it).
const raceEnabled = true
