// Package wire is Stepwise's native wire format
// (../shared/protocol/PROTOCOL.md): the stream events and history a backend
// sends, the frames a client sends, event ids and their order, and session
// ids. It decodes and builds; what the events mean for the conversation is
// package state's business.
//
// Decoding is tolerant as the protocol asks: unknown fields are ignored,
// fields whose JSON type varies between backends stay json.RawMessage, and
// the readers (ContentText, DecodeAnswers, Event.ErrorText, ...) never fail.
// Only a frame that is not a JSON object is an error.
//
// Everything here is plain data and pure functions: safe for concurrent use
// as long as a value is not written while it is read.
package wire
