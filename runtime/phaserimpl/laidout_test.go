package phaserimpl_test

import (
	"testing"

	"github.com/phaser-go/phaser/runtime/phaserimpl"
	"github.com/phaser-go/phaser/types/known/timestamppbphaser"
)

// TestLaidOutAs checks the guard of the encoders that write a flat message
// of another package in line: true for Timestamp's layout as generated,
// false for any field, kind, presence or extent that differs.
func TestLaidOutAs(t *testing.T) {
	ts := phaserimpl.EngineType(timestamppbphaser.Timestamp{}.PhaserType())
	seconds := phaserimpl.Field{Number: 1, Offset: 8, Bits: 4*phaserimpl.PresenceByte | 0x01*phaserimpl.PresenceMask | phaserimpl.SignedField}
	nanos := phaserimpl.Field{Number: 2, Offset: 16, Bits: 4*phaserimpl.PresenceByte | 0x02*phaserimpl.PresenceMask | phaserimpl.SignedField}
	if !phaserimpl.LaidOutAs(ts, 20, "\x03\x05", seconds, nanos) {
		t.Fatal("LaidOutAs(Timestamp as generated) = false")
	}
	moved := nanos
	moved.Offset = 12
	for name, ok := range map[string]bool{
		"extent":       phaserimpl.LaidOutAs(ts, 24, "\x03\x05", seconds, nanos),
		"kind":         phaserimpl.LaidOutAs(ts, 20, "\x03\x11", seconds, nanos), // sint32
		"presence":     phaserimpl.LaidOutAs(ts, 20, "\x03\x85", seconds, nanos),
		"offset":       phaserimpl.LaidOutAs(ts, 20, "\x03\x05", seconds, moved),
		"field left":   phaserimpl.LaidOutAs(ts, 20, "\x03", seconds),
		"kinds length": phaserimpl.LaidOutAs(ts, 20, "\x03", seconds, nanos),
		"no type":      phaserimpl.LaidOutAs(nil, 20, "\x03\x05", seconds, nanos),
	} {
		if ok {
			t.Errorf("LaidOutAs with another %s = true", name)
		}
	}
}
