// Package replay is the replay page mode as a backend.Backend: a captured
// stream (JSONL, or Server-Sent Events as captured off the wire) played
// through the real page, each event in a browser task of its own, timed
// for the stream benchmark (../shared/bench/README.md). There is no
// backend: what the person sends shows at once, and its frame is recorded
// (Recorder) where integrators and tests can read it.
package replay

import (
	"stepwise/app/backend"
	"stepwise/app/backend/native"
	"stepwise/state"
	"stepwise/state/wire"
)

// Config is what to play.
type Config struct {
	URL       string
	SessionID string // what the recorded frames name
	// Rate is the pace: events per second, 0 for as fast as possible.
	Rate float64
	// Warm is how many of the file's first events are applied at once,
	// before the timed run.
	Warm int
	// MaxFrame is the largest client frame recorded, as a backend's limit
	// would be (0: none).
	MaxFrame int
	// Store are the options of the conversation's store.
	Store state.Options
}

// Page is what the player asks of the page it plays in (see Player).
type Page struct {
	// Rendered calls done once the page has rendered what it applied.
	Rendered func(done func())
	// Drawing reports whether the page is still drawing what the warm-up
	// brought.
	Drawing func() bool
	// Prepare does what a live page does while it waits for the first
	// answer (the Markdown parser, the fonts).
	Prepare func()
	// Skipped is how many events the page's store skipped.
	Skipped func() int
}

// Backend plays a file.
type Backend struct {
	cfg  Config
	page Page
	rec  Recorder
}

// New returns the backend of a replay in page.
func New(cfg Config, page Page) *Backend {
	cfg.Store.Kept = state.KeptNowhere
	return &Backend{cfg: cfg, page: page}
}

// Traits: nobody keeps the conversation, and it is not listed.
func (b *Backend) Traits() backend.Traits {
	return backend.Traits{Store: b.cfg.Store}
}

// Open plays the file: connected at once, each event delivered in a
// browser task of its own.
func (b *Backend) Open(deliver func(backend.Event)) {
	deliver(backend.Connection{State: backend.Open})
	play(b.cfg, b.page, deliver)
}

// Do records the frame a native backend would have been sent.
func (b *Backend) Do(cmd backend.Command, conv *state.Store) error {
	frame, err := native.Encode(b.cfg.SessionID, cmd)
	if err != nil || frame == nil {
		return err
	}
	if b.cfg.MaxFrame > 0 && len(frame) > b.cfg.MaxFrame {
		return &backend.TooLargeError{Size: len(frame), Limit: b.cfg.MaxFrame}
	}
	return b.rec.Send(frame)
}

// Check measures the frame a message would make.
func (b *Backend) Check(conv *state.Store, text string, _ []wire.ContentBlock) error {
	return native.CheckMessage(b.cfg.SessionID, b.cfg.MaxFrame, text)
}

// Close has nothing to let go of.
func (b *Backend) Close() {}
