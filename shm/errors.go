package shm

import "errors"

// Errors reported by channels; match them with errors.Is.
var (
	// ErrNotChannel reports a file that is not a channel of a layout
	// version this package reads.
	ErrNotChannel = errors.New("not a phaser channel")
	// ErrCorrupt reports a channel file whose header or slot words are
	// inconsistent: damaged, or written by a hostile process.
	ErrCorrupt = errors.New("corrupt channel")
	// ErrTooLarge reports a channel larger than the subscriber maps
	// (Options.MaxSize).
	ErrTooLarge = errors.New("channel too large")
	// ErrMismatch reports a channel whose message type, slot size or slot
	// count is not the one the subscriber expects.
	ErrMismatch = errors.New("channel does not match")
	// ErrBusy reports a channel that a live publisher owns.
	ErrBusy = errors.New("channel has a live publisher")
	// ErrPublisherGone reports that the channel's publisher died without
	// closing it.
	ErrPublisherGone = errors.New("publisher is gone")
	// ErrClosed reports that the channel's publisher closed it.
	ErrClosed = errors.New("channel closed by its publisher")
	// ErrOverwritten reports a message whose slot was written again while
	// it was read (Message.Check): what was read from it is not the message.
	ErrOverwritten = errors.New("message overwritten while read")
)
