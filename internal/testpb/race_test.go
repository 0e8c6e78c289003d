//go:build race

package testpb_test

// raceEnabled: the race detector slows the reflection property test about
// tenfold; it runs half its messages then (still more than 1000).
const raceEnabled = true
