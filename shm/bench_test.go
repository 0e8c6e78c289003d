//go:build linux && (amd64 || arm64)

package shm

import (
	"context"
	"testing"

	"github.com/phaser-go/phaser/internal/testpb/testpbphaser"
	"github.com/phaser-go/phaser/runtime"
)

// BenchmarkPublishReceive is one message through a channel in one
// goroutine: Loan, build a small message in place, Publish, Next, read
// it in place, Check. It measures the CPU cost of the two sides (no
// cache-line transfer between cores).
func BenchmarkPublishReceive(b *testing.B) {
	path := channelPath(b)
	p := mustCreate(b, path, testConfig(64))
	s := mustSubscribe(b, path, Options{Type: scalarsType})
	var pl runtime.Payload
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		slot, _ := p.Loan()
		x, _ := testpbphaser.NewScalarsIn(slot)
		x.SetFInt64(int64(i))
		x.SetFString("hello")
		p.Publish(len(x.Bytes()))
		m, err := s.Next(ctx)
		if err != nil {
			b.Fatal(err)
		}
		y, _ := testpbphaser.ReadScalarsInto(&pl, m.Data)
		if y.FInt64() != int64(i) || m.Check() != nil {
			b.Fatal("bad message")
		}
	}
}

// BenchmarkChannelOnly is Loan, Publish, Next and Check without a message:
// the channel's own cost.
func BenchmarkChannelOnly(b *testing.B) {
	path := channelPath(b)
	p := mustCreate(b, path, testConfig(64))
	s := mustSubscribe(b, path, Options{Type: scalarsType})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		p.Loan()
		p.Publish(8)
		m, err := s.Next(ctx)
		if err != nil || m.Check() != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewIn is building the message alone.
func BenchmarkNewIn(b *testing.B) {
	slot := make([]byte, testSlotSize)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		x, _ := testpbphaser.NewScalarsIn(slot)
		x.SetFInt64(int64(i))
		x.SetFString("hello")
	}
}

// BenchmarkClearIn is refilling a handle made once in the slot.
func BenchmarkClearIn(b *testing.B) {
	slot := make([]byte, testSlotSize)
	x, _ := testpbphaser.NewScalarsIn(slot)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		x.Clear()
		x.SetFInt64(int64(i))
		x.SetFString("hello")
	}
}

// BenchmarkReadInto is reading a small message in place (warm).
func BenchmarkReadInto(b *testing.B) {
	slot := make([]byte, testSlotSize)
	x, _ := testpbphaser.NewScalarsIn(slot)
	x.SetFInt64(7)
	x.SetFString("hello")
	data := x.Bytes()
	var pl runtime.Payload
	b.ReportAllocs()
	var sink int64
	for b.Loop() {
		y, _ := testpbphaser.ReadScalarsInto(&pl, data)
		sink += y.FInt64() + int64(len(y.FStringBytes()))
	}
	_ = sink
}
