// Package agent is an AG-UI agent or an AI SDK chat route as a
// backend.Backend (BACKENDS.md sections 2 to 4). Those backends keep no
// conversation: the page does, in the protocol's own message format, and
// saves it in the browser (IndexedDB), so a reload restores it at once.
// Each run is one request, POSTed with the whole conversation, whose
// answer is the run's event stream; Stop aborts it. An AI SDK route may
// also give back the stream of a run under way (a reload, a dropped
// connection).
//
// Which protocol is a value (Protocol: the request a run makes, how to
// resume, what is saved), not a branch. The decisions are plain Go,
// tested natively; the fetching is in stream_js.go.
package agent

import (
	"cmp"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"

	"stepwise/app/backend"
	"stepwise/components"
	"stepwise/state"
	"stepwise/state/wire"
)

// MaxEvent bounds one event of an agent's stream: a larger one (a line of
// 50 MB) is skipped as it is read, never held whole, and the page says so.
// A snapshot of a long conversation fits.
const MaxEvent = 8 << 20

// saveDelay batches the saves of a streaming run.
const saveDelay = 300 * time.Millisecond

// Request is one request of a run.
type Request struct {
	Method string
	URL    string
	Body   []byte // nil for a GET
}

// Protocol is what differs between AG-UI and the AI SDK.
type Protocol interface {
	// Name is the protocol as the server's -protocol names it, kept with
	// a saved conversation.
	Name() string
	// Kept is how the store keeps the conversation.
	Kept() state.Kept
	// Run is the request for the run the page's last local event
	// (state's UserSent or AnswersSent) started.
	Run(conv *state.Store) (Request, bool)
	// Resume is the request for the chat's active stream; ok is false
	// for a protocol that cannot give a run's stream back.
	Resume(conv *state.Store) (req Request, ok bool)
	// WithAppContext adds what the page's MCP Apps told the model to a
	// run's request.
	WithAppContext(req Request, list []backend.AppContext) Request
	// Conversation is the store's conversation in the protocol's format,
	// as JSON would marshal it (its size bounds a request's).
	Conversation(conv *state.Store) any
	// Save puts the store's conversation into rec.
	Save(conv *state.Store, rec *Saved)
	// Restore is the local event that shows rec (its ID's new
	// conversation when rec is nil), and whether a stream was running
	// when it was saved, so the route is asked for it.
	Restore(rec *Saved, id string) (ev state.Restored, resume bool)
}

// AGUI is an AG-UI agent at Path.
type AGUI struct{ Path string }

func (AGUI) Name() string     { return "ag-ui" }
func (AGUI) Kept() state.Kept { return state.KeptAsAGUI }

func (p AGUI) Run(conv *state.Store) (Request, bool) {
	in, ok := conv.NextAGUIRun()
	return post(p.Path, in, ok)
}

func (AGUI) Resume(*state.Store) (Request, bool) { return Request{}, false }

// WithAppContext adds RunAgentInput.context entries ({description, value}).
func (AGUI) WithAppContext(req Request, list []backend.AppContext) Request {
	return withBody(req, list, addAGUIContext)
}

func addAGUIContext(body map[string]json.RawMessage, list []backend.AppContext) {
	var ctx []json.RawMessage
	_ = json.Unmarshal(body["context"], &ctx)
	for _, c := range list {
		entry, _ := json.Marshal(map[string]string{
			"description": "MCP App " + c.ResourceURI + " (tool call " + c.ToolUseID + "): what it wants the model to know",
			"value":       string(c.Context),
		})
		ctx = append(ctx, entry)
	}
	body["context"], _ = json.Marshal(ctx)
}

func (AGUI) Conversation(conv *state.Store) any { return conv.AGUIConversation() }

func (AGUI) Save(conv *state.Store, rec *Saved) {
	c := conv.AGUIConversation()
	rec.AGUI = &c
}

func (AGUI) Restore(rec *Saved, id string) (state.Restored, bool) {
	if rec != nil && rec.AGUI != nil {
		return state.Restored{AGUI: rec.AGUI}, false
	}
	return state.Restored{AGUI: &state.AGUIConversation{ThreadID: id}}, false
}

// AISDK is an AI SDK chat route at Path.
type AISDK struct{ Path string }

func (AISDK) Name() string     { return "ai-sdk" }
func (AISDK) Kept() state.Kept { return state.KeptAsAISDK }

func (p AISDK) Run(conv *state.Store) (Request, bool) {
	req, ok := conv.NextUIChatRequest()
	return post(p.Path, req, ok)
}

// Resume asks for the chat's active stream (GET {route}/{id}/stream; 204
// when there is none).
func (p AISDK) Resume(conv *state.Store) (Request, bool) {
	return p.resume(conv.UIConversation().ID), true
}

func (p AISDK) resume(chatID string) Request {
	return Request{Method: "GET", URL: strings.TrimSuffix(p.Path, "/") + "/" + url.PathEscape(chatID) + "/stream"}
}

// WithAppContext adds the request's mcpAppContext.
func (AISDK) WithAppContext(req Request, list []backend.AppContext) Request {
	return withBody(req, list, addAISDKContext)
}

func addAISDKContext(body map[string]json.RawMessage, list []backend.AppContext) {
	body["mcpAppContext"], _ = json.Marshal(list)
}

// withBody is req with list added to its JSON body by add (functions, not
// closures: each protocol's method is copied into its pointer receiver's,
// and a closure with it); req itself when there is nothing to add or its
// body is not a JSON object.
func withBody(req Request, list []backend.AppContext, add func(body map[string]json.RawMessage, list []backend.AppContext)) Request {
	if len(list) == 0 || req.Body == nil {
		return req
	}
	var body map[string]json.RawMessage
	if json.Unmarshal(req.Body, &body) != nil {
		return req
	}
	add(body, list)
	if raw, err := json.Marshal(body); err == nil {
		req.Body = raw
	}
	return req
}

func (AISDK) Conversation(conv *state.Store) any { return conv.UIConversation() }

func (AISDK) Save(conv *state.Store, rec *Saved) {
	c := conv.UIConversation()
	rec.UI = &c
}

func (AISDK) Restore(rec *Saved, id string) (state.Restored, bool) {
	if rec != nil && rec.UI != nil {
		return state.Restored{UI: rec.UI}, rec.UI.Active != nil
	}
	return state.Restored{UI: &state.UIConversation{ID: id}}, false
}

func post(path string, body any, ok bool) (Request, bool) {
	if !ok {
		return Request{}, false
	}
	raw, _ := json.Marshal(body)
	return Request{Method: "POST", URL: path, Body: raw}, true
}

// Saved is a conversation as the browser keeps it: in the protocol's own
// message format, with what the conversations list shows.
type Saved struct {
	ID       string                  `json:"id"`
	Protocol string                  `json:"protocol"`
	Title    string                  `json:"title"`
	Updated  int64                   `json:"updated"` // Unix milliseconds
	AGUI     *state.AGUIConversation `json:"agui,omitempty"`
	UI       *state.UIConversation   `json:"ui,omitempty"`
	// Trimmed counts the oldest messages left out because the browser's
	// storage was full (saving.go); 0 when all is kept.
	Trimmed int `json:"trimmed,omitempty"`
}

// Conversations keep conversations in the browser. Every method blocks:
// the backend calls them on a goroutine of its own. Put fails with
// ErrStorageFull when the browser's quota is full, and then stores
// nothing.
type Conversations interface {
	Put(Saved) error
	Get(id string) (Saved, bool, error)
}

// ErrNoStorage: the browser has no IndexedDB, or refuses it (private
// mode, storage blocked, quota).
var ErrNoStorage = errors.New("this browser does not keep conversations")

// maxTitle bounds a conversation's title (its first user message).
const maxTitle = 80

// save is what to keep of the store's conversation.
func save(p Protocol, conv *state.Store, id string, now time.Time) Saved {
	rec := Saved{ID: id, Protocol: p.Name(), Updated: now.UnixMilli()}
	for _, it := range conv.Items() {
		if it.Kind == state.KindUser && strings.TrimSpace(it.Text) != "" {
			rec.Title = clip(strings.Join(strings.Fields(it.Text), " "), maxTitle)
			break
		}
	}
	p.Save(conv, &rec)
	return rec
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// SortNewestFirst orders saved conversations newest first.
func SortNewestFirst(list []Saved) {
	slices.SortStableFunc(list, func(a, b Saved) int { return cmp.Compare(b.Updated, a.Updated) })
}

// Config is what the backend needs to know.
type Config struct {
	SessionID string
	Protocol  Protocol
	// MaxRequest is the largest request the backend takes, in bytes (0:
	// no limit): a run's request carries the whole conversation.
	MaxRequest int
	// Silence: a run's stream that brings nothing for this long (not a
	// byte, not a keep-alive) is ended with a notice. 0: never.
	Silence time.Duration
	// Store are the options of the conversation's store.
	Store state.Options
	// Conversations opens the browser's store of conversations (it
	// blocks); nil or an error: the conversation is kept in memory only.
	Conversations func() (Conversations, error)
	// FeedbackURL is where ratings are POSTed (-feedback-url); "": the
	// thumbs are not offered.
	FeedbackURL string
}

// stream is a request being streamed.
type stream interface{ Stop() }

// events is what a request's stream reports, each from the request's
// goroutine, in order.
type events struct {
	started func()                      // the answer is a stream: frames follow
	none    func()                      // 204: nothing to resume
	frames  func(frames [][]byte)       // one read's complete events
	problem func(p *wire.StreamProblem) // the answer was not a stream
	end     func(err error)             // the stream ended (err: how, if badly)
	// silent: nothing came for Config.Silence; the request was aborted.
	silent func()
	// dropped: an event larger than MaxEvent was skipped.
	dropped func()
}

// Backend is an agent backend. Its fields are changed only inside the
// page's update (Do, and the events it resolves there: backend.Of).
type Backend struct {
	cfg     Config
	deliver func(backend.Event)
	convs   Conversations // nil: kept in memory only
	stream  stream        // the request streamed last, nil when none
	gen     int           // counts requests: a stale one's events are dropped
	// saveQueued: a save is due after saveDelay.
	saveQueued bool
	// saving: a save is under way; saveAgain: the conversation changed
	// meanwhile. One save at a time, so that an older one never lands
	// after a newer one.
	saving, saveAgain bool
	// leftOut is how many of the oldest turns the last save left out
	// (the storage is full); trimmed, the messages a save left out
	// before this page restored the conversation. fullSaid: the page
	// was told.
	leftOut, trimmed int
	fullSaid         bool

	// start sends a request and streams its answer into ev
	// (stream_js.go); a test's stands in natively.
	start func(req Request, silence time.Duration, ev events) stream
	// unloading reports that the page goes away (F5, the tab closed): the
	// browser then cuts the stream, which is not the agent's failure.
	unloading func() bool
	// aborted reports the error of a request the page aborted.
	aborted func(error) bool
}

// New returns an agent backend; Open restores its conversation.
func New(cfg Config) *Backend {
	cfg.Store.Kept = cfg.Protocol.Kept()
	b := &Backend{cfg: cfg}
	b.start, b.unloading, b.aborted = startRequest, pageUnloading, aborted
	return b
}

// Traits: the page keeps the conversation, listed in the sidebar, with
// the user's half (userhalf.go): files, edits, versions, and ratings
// where the deployment takes them.
func (b *Backend) Traits() backend.Traits {
	return backend.Traits{Store: b.cfg.Store, Listed: true, Uploads: true,
		Offers: components.Offers{Edit: true, Regenerate: true, Branches: true, Feedback: b.cfg.FeedbackURL != "", Export: true, Jump: true}}
}

// Open restores the page's conversation from the browser's storage when
// it has it (and, for an AI SDK route that was streaming, asks for its
// stream again), else starts a new one.
func (b *Backend) Open(deliver func(backend.Event)) {
	b.deliver = deliver
	watchUnload()
	backend.WatchNetwork(func(online bool) { deliver(backend.Network{Online: online}) })
	go b.restore()
}

// restore loads the conversation into a store of its own, on the
// backend's goroutine.
func (b *Backend) restore() {
	var convs Conversations
	var err error = ErrNoStorage
	if b.cfg.Conversations != nil {
		convs, err = b.cfg.Conversations()
	}
	var rec *Saved
	if err == nil {
		if r, found, err := convs.Get(b.cfg.SessionID); err == nil && found {
			rec = &r
		}
	} else {
		convs = nil
	}
	loaded := state.New(b.cfg.Store)
	ev, resume := b.cfg.Protocol.Restore(rec, b.cfg.SessionID)
	changes, _ := loaded.ApplyLocal(ev)
	b.deliver(backend.Of{Events: func(*state.Store) []backend.Event {
		b.convs = convs
		out := []backend.Event{backend.Loaded{Store: loaded, Changes: changes}, backend.Connection{State: backend.Open}}
		if convs == nil {
			out = append(out, backend.StorageRefused{})
		}
		if rec != nil && rec.Trimmed > 0 {
			b.trimmed = rec.Trimmed
			out = append(out, backend.Trimmed{})
		}
		if resume {
			if req, ok := b.cfg.Protocol.Resume(loaded); ok {
				b.request(req, false)
			}
		}
		return out
	}})
}

// Do starts a run for a message or the cards' answers (a stream that
// lingers after its run ended is let go), aborts it for Stop, and keeps
// the conversation. Answers need nothing: the store holds them until the
// run they go with (Continue).
func (b *Backend) Do(cmd backend.Command, conv *state.Store) error {
	switch cmd := cmd.(type) {
	case backend.Send, backend.Continue:
		req, ok := b.cfg.Protocol.Run(conv)
		if !ok {
			return errors.New("no run to start")
		}
		if send, ok := cmd.(backend.Send); ok {
			req = b.cfg.Protocol.WithAppContext(req, send.AppContext)
		}
		b.stop()
		b.request(req, false)
	case backend.Stop:
		b.stop()
	case backend.Upload:
		if b.deliver == nil {
			return backend.ErrUnsupported
		}
		readFile(cmd, b.deliver)
	case backend.Edit:
		return b.act(cmd.ID, state.Edited{ParentID: cmd.ParentID, Text: cmd.Text}, conv, true, nil)
	case backend.Regenerate:
		return b.act(cmd.ID, state.Regenerated{MessageID: cmd.MessageID}, conv, true, nil)
	case backend.SelectBranch:
		return b.act(cmd.ID, state.BranchChosen{MessageID: cmd.MessageID}, conv, false, shows(cmd.MessageID))
	case backend.Rate:
		if b.cfg.FeedbackURL == "" || b.deliver == nil {
			return backend.ErrUnsupported
		}
		body := feedbackBody(b.cfg.Protocol, conv, cmd)
		go func() {
			status, err := postJSON(b.cfg.FeedbackURL, body)
			b.rated(cmd, status, err)
		}()
	case backend.Save:
		b.saveQueued = false
		b.save(conv)
	case backend.SaveSoon:
		if !b.saveQueued && b.deliver != nil {
			b.saveQueued = true
			time.AfterFunc(saveDelay, func() { b.deliver(backend.SaveDue{}) })
		}
	}
	return nil
}

// Check measures the request a run with text and files would make: it
// carries the whole conversation, and the files' bytes inline.
func (b *Backend) Check(conv *state.Store, text string, files []wire.ContentBlock) error {
	if b.cfg.MaxRequest <= 0 {
		return nil
	}
	c, _ := json.Marshal(b.cfg.Protocol.Conversation(conv))
	t, _ := json.Marshal(text)
	size := len(c) + len(t) + 512 // the request's own fields, the message's
	conversation := size > b.cfg.MaxRequest
	for _, f := range files {
		size += 256 // a part's own fields
		if f.Source != nil {
			size += len(f.Source.Data) + len(f.Source.URL)
		}
	}
	if size > b.cfg.MaxRequest {
		// Over with the files alone: the message is what to shorten.
		return &backend.TooLargeError{Size: size, Limit: b.cfg.MaxRequest, Conversation: conversation}
	}
	return nil
}

// Close aborts the request under way.
func (b *Backend) Close() { b.stop() }

// stop aborts the request under way, whose events are dropped from now.
func (b *Backend) stop() {
	if b.stream != nil {
		b.stream.Stop()
		b.stream = nil
	}
	b.gen++
}

// save saves the conversation on a goroutine of its own, one save at a
// time. When the storage is full the newest turns that fit are saved and
// the page is told once (StorageFull); when not even the newest turn fits,
// or the browser refuses, it is told so (StorageRefused), what was saved
// stays, and nothing more is. What is shown never changes.
func (b *Backend) save(conv *state.Store) {
	convs := b.convs
	if convs == nil {
		return
	}
	if b.saving {
		b.saveAgain = true
		return
	}
	b.saving = true
	rec := save(b.cfg.Protocol, conv, b.cfg.SessionID, time.Now())
	rec.Trimmed = b.trimmed
	from := b.leftOut
	go func() {
		leftOut, err := saveNewestTurns(convs.Put, rec, from)
		b.deliver(backend.Of{Events: func(conv *state.Store) []backend.Event {
			b.saving = false
			out := b.saved(convs, leftOut, err)
			if b.saveAgain {
				b.saveAgain = false
				b.save(conv)
			}
			return out
		}})
	}()
}

// saved takes a save's outcome: leftOut turns were left out, or err.
func (b *Backend) saved(convs Conversations, leftOut int, err error) []backend.Event {
	if b.convs != convs {
		return nil // saving stopped meanwhile
	}
	if err != nil {
		b.convs = nil
		return []backend.Event{backend.StorageRefused{}}
	}
	b.leftOut = max(b.leftOut, leftOut)
	if leftOut > 0 && !b.fullSaid {
		b.fullSaid = true
		return []backend.Event{backend.StorageFull{}}
	}
	return nil
}

// emit delivers what decide says once it is applied, unless request gen
// is no longer current by then. (Not inlined: request calls it in many
// places.)
//
//go:noinline
func (b *Backend) emit(gen int, decide func(conv *state.Store) []backend.Event) {
	b.deliver(backend.Of{Events: func(conv *state.Store) []backend.Event {
		if gen != b.gen {
			return nil
		}
		return decide(conv)
	}})
}

// request sends req and delivers its stream. reconnecting marks an AI SDK
// resume asked for because the run's own stream broke: when it brings
// nothing back, the run ends with a notice instead of quietly.
func (b *Backend) request(req Request, reconnecting bool) {
	b.gen++
	gen := b.gen
	resume := req.Method == "GET"
	emit := func(decide func(conv *state.Store) []backend.Event) { b.emit(gen, decide) }
	just := func(evs ...backend.Event) func(*state.Store) []backend.Event {
		return func(*state.Store) []backend.Event { return evs }
	}
	finish := []backend.Event{backend.Connection{State: backend.Open}, backend.StreamClosed{}}
	giveUp := func(detail string) []backend.Event {
		out := []backend.Event{backend.Happened{Event: state.NothingToResume{}}}
		if reconnecting {
			out = append(out, backend.Happened{Event: state.StreamEnded{Detail: detail}})
		}
		return append(out, finish...)
	}
	b.stream = b.start(req, b.cfg.Silence, events{
		started: func() {
			if resume {
				emit(just(backend.Connection{State: backend.Open}, backend.Happened{Event: state.StreamResumed{}}))
			}
		},
		none: func() { emit(just(giveUp("")...)) },
		frames: func(frames [][]byte) {
			emit(just(backend.Frames{Frames: frames, Paced: true}))
		},
		silent: func() {
			emit(just(append([]backend.Event{backend.Happened{Event: state.StreamTimedOut{}}}, finish...)...))
		},
		dropped: func() { emit(just(backend.Oversized{Limit: MaxEvent})) },
		problem: func(p *wire.StreamProblem) {
			if resume {
				emit(just(giveUp(p.Error())...)) // what was saved stays as shown
				return
			}
			emit(just(append([]backend.Event{backend.Happened{Event: state.StreamRefused{Problem: p}}}, finish...)...))
		},
		end: func(err error) {
			if b.unloading() || b.aborted(err) {
				return
			}
			emit(func(conv *state.Store) []backend.Event {
				running := conv.Status() == state.StatusRunning
				if err != nil && !resume && running {
					// The connection dropped mid-run: a route that can
					// give the stream back may still have it.
					if req, ok := b.cfg.Protocol.Resume(conv); ok {
						b.request(req, true)
						return []backend.Event{backend.Connection{State: backend.Reconnecting}}
					}
				}
				var out []backend.Event
				if err != nil || running {
					detail := ""
					if err != nil {
						detail = err.Error()
					}
					out = append(out, backend.Happened{Event: state.StreamEnded{Detail: detail}})
				}
				return append(out, finish...)
			})
		},
	})
}
