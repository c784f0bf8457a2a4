package state

import (
	"cmp"
	"slices"

	"stepwise/state/wire"
)

// AG-UI sub-agents. An agent that delegates attributes its sub-agents'
// events to them (subagentRunId, announced by SUBAGENT_STARTED), or runs
// another agent as a separate run under its own (RUN_STARTED.parentRunId).
// Either way the sub-agent's work (its reasoning, tools, text) goes into a
// group of its own, nested where it was spawned: after the tool call that
// spawned it, else in its parent sub-agent's group, else in the open
// group; its own text is a step of that group, not the answer.

// aguiSubagent is one sub-agent invocation being shown.
type aguiSubagent struct {
	group *Item
}

// aguiSubagentFor returns the invocation an event is attributed to, nil
// for the parent's own events. A run under parentRunId is one too.
// An event of an invocation never announced (a stream without
// SUBAGENT_STARTED, a conversation shown again) opens an unnamed one.
func (s *Store) aguiSubagentFor(st *aguiState, ev *wire.AGUIEvent) *aguiSubagent {
	switch ev.Type {
	case "RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "SUBAGENT_STARTED", "SUBAGENT_FINISHED", "SUBAGENT_ERROR":
		return nil
	}
	if ev.SubagentRunID != "" {
		if st.subagents[ev.SubagentRunID] == nil {
			s.aguiStartSubagent(st, ev.SubagentRunID, Subagent{}, ev.ParentToolCallID, "")
		}
		return st.subagents[ev.SubagentRunID]
	}
	if st.childRun != "" {
		return st.subagents[st.childRun]
	}
	return nil
}

// inSubagent applies an event attributed to a sub-agent: inside its group.
// The messages the event adds carry its subagentRunId, as the reference
// client's do.
func (s *Store) inSubagent(st *aguiState, sub *aguiSubagent, ev *wire.AGUIEvent, apply func() bool) bool {
	saved := s.group
	s.group = sub.group
	st.conv.subagent = ev.SubagentRunID
	st.nesting++
	ok := apply()
	st.nesting--
	st.conv.subagent = ""
	if s.group == sub.group || s.group == nil {
		s.group = saved
	}
	return ok
}

// aguiStartSubagent opens the group of a sub-agent invocation.
func (s *Store) aguiStartSubagent(st *aguiState, id string, info Subagent, parentToolCallID, parentSubagent string) {
	if id == "" {
		return
	}
	if old := st.subagents[id]; old != nil {
		return // announced again: one group
	}
	if s.status != StatusRunning {
		s.beginRun()
	}
	s.nextKey++
	it := &Item{Key: s.nextKey, Kind: KindGroup}
	it.Group = &Group{Open: true, Subagent: &info}
	st.subagents[id] = &aguiSubagent{group: it}
	var parent *Item
	var after *Item
	if t := s.tools[parentToolCallID]; t != nil && t.parent != nil {
		parent, after = t.parent, t
	} else if p := st.subagents[parentSubagent]; p != nil {
		parent = p.group
	} else {
		parent = s.group
	}
	if parent == nil {
		s.appendTop(it)
		return
	}
	it.parent = parent
	g := parent.Group
	if after != nil {
		// After the tool that spawned it and the sub-agents it spawned
		// before, in the order they started.
		at := slices.Index(g.Steps, after) + 1
		for at < len(g.Steps) && (g.Steps[at].Kind == KindApproval || g.Steps[at].Group != nil && g.Steps[at].Group.Subagent != nil) {
			at++
		}
		g.Steps = slices.Insert(g.Steps, at, it)
	} else {
		g.Steps = append(g.Steps, it)
	}
	s.touch(it)
}

// aguiEndSubagent closes a sub-agent's group; failed marks it so.
func (s *Store) aguiEndSubagent(st *aguiState, id string, failed bool) {
	sub := st.subagents[id]
	if sub == nil {
		return
	}
	if failed {
		sub.group.Group.Subagent.Failed = true
	}
	s.closeSubgroup(sub.group)
}

func (s *Store) closeSubgroup(it *Item) {
	g := it.Group
	if !g.Open {
		s.touch(it)
		return
	}
	g.closedTitle = g.openTitle()
	g.Open = false
	s.touch(it)
}

// aguiCloseSubagents closes every sub-agent group still open: the run
// they belong to is over.
func (s *Store) aguiCloseSubagents(st *aguiState) {
	var open []*Item
	for _, sub := range st.subagents {
		if sub.group.Group.Open {
			open = append(open, sub.group)
		}
	}
	// In the order they came, so revisions do not depend on the map's.
	slices.SortFunc(open, func(a, b *Item) int { return cmp.Compare(a.Key, b.Key) })
	for _, g := range open {
		s.closeSubgroup(g)
	}
}

// aguiChildRun starts a run under parentRunId: a sub-agent invocation of
// its own, nested in the last group of the parent run, which opens (and
// shows as running) again while it works; top-level when the parent run
// made no group.
func (s *Store) aguiChildRun(st *aguiState, ev *wire.AGUIEvent) {
	st.childRun = ev.RunID
	parent := st.runGroups[ev.ParentRunID]
	if parent == nil {
		s.closeGroup(nil)
		s.aguiStartSubagent(st, ev.RunID, Subagent{}, "", "")
		return
	}
	if !parent.Group.Open {
		s.closeGroup(nil)
		parent.Group.Open = true // the parent's work goes on in it
		s.touch(parent)
		st.reopened = parent
		s.group = parent
	}
	saved := s.group
	s.group = parent
	s.aguiStartSubagent(st, ev.RunID, Subagent{}, "", "")
	s.group = saved
}

// aguiEndChildRun ends a run under parentRunId: its group closes, and the
// parent's group it reopened.
func (s *Store) aguiEndChildRun(st *aguiState) {
	if st.childRun == "" {
		return
	}
	s.aguiEndSubagent(st, st.childRun, false)
	st.childRun = ""
	if st.reopened != nil {
		if s.group == st.reopened {
			s.closeGroup(nil)
		} else {
			s.closeSubgroup(st.reopened)
		}
		st.reopened = nil
	}
}

// noteRunGroup remembers the last group a run made, where runs it spawns
// later nest.
func (s *Store) noteRunGroup(st *aguiState) {
	if g := s.lastGroup(); g != nil && g.Key > st.runStartKey && st.runID != "" {
		st.runGroups[st.runID] = g
	}
}
