package state

import (
	"slices"

	"stepwise/state/wire"
)

// Usage is token counts (BACKENDS.md section 1): of a message, of a turn,
// or summed over the conversation.
type Usage struct {
	InputTokens          int64 `json:"input_tokens"`
	OutputTokens         int64 `json:"output_tokens"`
	CacheReadInputTokens int64 `json:"cache_read_input_tokens"`
	WebSearchRequests    int64 `json:"web_search_requests"`
	// What AG-UI runs report besides (RUN_FINISHED.usage, RUN_ERROR.usage):
	// the reasoning tokens among the output, the total the backend gave, and
	// the models that ran ("provider/model", or either alone), in order.
	ReasoningTokens int64    `json:"reasoning_tokens,omitempty"`
	TotalTokens     int64    `json:"total_tokens,omitempty"`
	Models          []string `json:"models,omitempty"`
}

func (u *Usage) add(o Usage) {
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CacheReadInputTokens += o.CacheReadInputTokens
	u.WebSearchRequests += o.WebSearchRequests
	u.ReasoningTokens += o.ReasoningTokens
	u.TotalTokens += o.TotalTokens
	for _, m := range o.Models {
		if !slices.Contains(u.Models, m) {
			u.Models = append(u.Models, m)
		}
	}
}

// runUsage adds the usage a whole run reported (an AG-UI RUN_FINISHED or
// RUN_ERROR) to the conversation and the turn in progress.
func (s *Store) runUsage(entries []wire.AGUITokenUsage) {
	if len(entries) == 0 {
		return
	}
	var u Usage
	for _, e := range entries {
		u.add(Usage{
			InputTokens:          e.InputTokens,
			OutputTokens:         e.OutputTokens,
			CacheReadInputTokens: e.CachedInputTokens,
			ReasoningTokens:      e.ReasoningTokens,
			TotalTokens:          e.TotalTokens,
		})
		label := e.Model
		if e.Provider != "" && e.Model != "" {
			label = e.Provider + "/" + e.Model
		} else if label == "" {
			label = e.Provider
		}
		if label != "" && !slices.Contains(u.Models, label) {
			u.Models = append(u.Models, label)
		}
	}
	s.usage.add(u)
	s.hasUsage = true
	if s.turn != nil {
		s.turn.usage.add(u)
		s.turn.hasUsage = true
	}
}

// merge replaces each field w carries: within one message, usage is
// cumulative, and a field never sent counts 0.
func (u *Usage) merge(w *wire.Usage) {
	set := func(dst *int64, src *int64) {
		if src != nil {
			*dst = *src
		}
	}
	set(&u.InputTokens, w.InputTokens)
	set(&u.OutputTokens, w.OutputTokens)
	set(&u.CacheReadInputTokens, w.CacheReadInputTokens)
	if w.ServerToolUse != nil {
		set(&u.WebSearchRequests, w.ServerToolUse.WebSearchRequests)
	}
}

// turn is a turn in progress: from a user message, or a message_start while
// the agent was not running, to the end of the run.
type turn struct {
	first    int   // index in s.items of the turn's first assistant item
	usage    Usage // the turn's messages before the current one
	hasUsage bool
}

// Usage returns the token counts summed over the conversation's messages;
// ok is false when no message reported any.
func (s *Store) Usage() (u Usage, ok bool) {
	u = s.usage
	u.Models = slices.Clone(u.Models) // the caller's to keep
	u.add(s.msgUsage)
	return u, s.hasUsage
}

// messageUsage applies the usage of message_start (a new message) or of a
// message_delta (the same message, cumulative).
func (s *Store) messageUsage(w *wire.Usage) {
	if w == nil {
		return
	}
	s.msgUsage.merge(w)
	s.hasUsage = true
	if s.turn != nil {
		s.turn.hasUsage = true
	}
}

// commitMessageUsage files the current message's usage under the
// conversation and its turn, before another message starts or when its
// turn ends, so no later turn counts it.
func (s *Store) commitMessageUsage() {
	s.usage.add(s.msgUsage)
	if s.turn != nil {
		s.turn.usage.add(s.msgUsage)
	}
	s.msgUsage = Usage{}
}

// startTurn begins a turn whose items are those added from now on.
func (s *Store) startTurn() {
	s.endTurn()
	s.commitMessageUsage() // of a message no turn held
	s.turn = &turn{first: len(s.items)}
}

// endTurn ends the turn in progress: its last top-level item shows the
// turn's usage, when its messages reported any.
func (s *Store) endTurn() {
	s.markAnswerRef()
	t := s.turn
	if t == nil {
		return
	}
	s.commitMessageUsage()
	s.markAnswer()
	s.turn = nil
	if !t.hasUsage || len(s.items) <= t.first {
		return
	}
	total := t.usage
	last := s.items[len(s.items)-1]
	last.Usage = &total
	s.touch(last)
}
