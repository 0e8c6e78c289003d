//go:build !race

package testpb_test

const raceEnabled = false
