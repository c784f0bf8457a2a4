// Package state is Stepwise's block store: it turns an agent backend's
// history and event stream into the items the UI shows, by the rules of
// ../shared/protocol/PROTOCOL.md, and builds the view model of REPLAY.md.
// "Rule N" in this package is grouping rule N of PROTOCOL.md section 3.
// The wire format itself (decoding events, history and client frames,
// event ids and their order) is package stepwise/state/wire.
//
// It is pure Go, with no browser code, so the same store runs in the
// browser, in the server's replay command, in the demo agent and in tests.
//
// # Update and view
//
// A Store is a model with an update function, as in Bubble Tea:
//
//   - [Store.LoadHistory] replaces the whole content with a history
//     response: where a page load or a reload (F5) starts.
//   - [Store.Apply] applies one decoded event; [Store.ApplyJSON] decodes a
//     frame first. Each returns [Changes]: the [Outcome] (Applied; Dropped
//     when the event's id is not after [Store.LastEventID], so a replay after
//     a reconnect shows nothing twice; Skipped when the event is invalid) and
//     which items, the status, the sources panel and the pending approval
//     changed, so a renderer redraws only those.
//   - [Store.Items], [Store.Status], [Store.Pending], [Store.Sources] and
//     [Store.LastEventID] read the result; [Store.View] is all of it as the
//     JSON view model that `stepwise replay` prints and the conformance
//     cases check.
//
// Apply is pure: it changes the store and nothing else, and what it does
// depends only on the store and the event, never on the clock, I/O,
// randomness or package state, so the same stream gives the same items,
// revisions and Changes everywhere. Bad input never panics and never undoes
// what is shown: an invalid event is counted ([Store.SkippedCount]) and
// changes nothing else.
//
// # AG-UI and AI SDK
//
// ApplyJSON also applies AG-UI events and AI SDK UI message stream chunks
// (BACKENDS.md sections 2 and 3), recognised per event by their type, so one
// store (and `stepwise replay`) takes a stream of any of the dialects. Those
// backends keep no conversation: the store keeps it, built from the events
// in each protocol's own message format ([Store.AGUIConversation],
// [Store.UIConversation]).
//
// # Local events
//
// What happens on the page's side is applied as an event too, with
// [Store.ApplyLocal], and returns its Changes: the person sent a message
// ([UserSent]) or answered a card ([CardAnswered]; [AnswersSent] when
// every card has its answer), stopped the run ([RunStopped]), a card
// expired ([CardsExpired]), a saved conversation was restored
// ([Restored]), or the page learnt how a run's stream ended
// ([StreamEnded], [StreamTimedOut], [StreamRefused], [StreamResumed],
// [NothingToResume]). Who keeps the conversation ([Options].Kept: the
// backend, or the page as an AG-UI thread or an AI SDK chat) decides what
// each does. The request a run makes is then read with a query that
// changes nothing ([Store.NextAGUIRun], [Store.NextUIChatRequest]). These
// client actions make ids with [Options].NewID (random by default); Apply
// itself stays deterministic.
//
// # Ownership and concurrency
//
// A Store is not safe for concurrent use. The items it returns are its own
// and change in place as later events are applied ([Item].Rev says when):
// read them, never write them, and copy [Changes].Items before the next
// call if you keep it. Every call on a Store, reads included, must
// therefore come from one goroutine, or be serialised by the Store's owner.
// In the browser the owner is the page's controller, which changes the
// store only in go-app's engine work, serialised by the engine: transports
// hand their frames over with ctx.Dispatch rather than applying them where
// they arrive (docs/architecture.md, "Ownership and concurrency").
package state
