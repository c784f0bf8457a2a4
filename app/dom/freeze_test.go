package dom

import (
	"testing"
	"time"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/components"
	"stepwise/state"
)

// fakeChunks stands for the page: what freezing did to it.
type fakeChunks struct {
	refuse  map[int]bool // take fails (the reader is in the chunk)
	notYet  map[int]bool // place fails (go-app has not drawn it empty)
	taken   []int
	placed  []int
	dropped []int
}

func (d *fakeChunks) take(i int) bool {
	if d.refuse[i] {
		return false
	}
	d.taken = append(d.taken, i)
	return true
}

func (d *fakeChunks) place(i int) bool {
	if d.notYet[i] {
		return false
	}
	d.placed = append(d.placed, i)
	return true
}

func (d *fakeChunks) drop(i int) { d.dropped = append(d.dropped, i) }

func newFreezer() (*freezer, *fakeChunks) {
	d := &fakeChunks{refuse: map[int]bool{}, notYet: map[int]bool{}}
	f := &freezer{}
	f.init(goapp.Context{}, d)
	return f, d
}

// answers returns n settled text items, keys and revisions 1..n.
func answers(n int) []*state.Item {
	items := make([]*state.Item, n)
	for i := range items {
		items[i] = &state.Item{Key: i + 1, Rev: uint64(i + 1), Kind: state.KindText, Text: "a", Final: true}
	}
	return items
}

func TestFreezeCandidatesLeaveTheNewestChunksLive(t *testing.T) {
	f, _ := newFreezer()
	now := time.Now()
	items := answers(3*components.ChunkSize + 4) // chunks 0..3
	assert.Equal(t, []int{0, 1}, f.candidates(items, nil, "", now, 8))
	assert.Equal(t, []int{0}, f.candidates(items, nil, "", now, 1), "at most limit")
	assert.Empty(t, f.candidates(answers(2*components.ChunkSize), nil, "", now, 8), "two chunks: both newest")

	f.marks[0] = components.MarkOf(components.Chunk(items, 0))
	f.pending[1] = components.MarkOf(components.Chunk(items, 1))
	assert.Empty(t, f.candidates(items, nil, "", now, 8), "frozen and being frozen")
}

func TestFreezeCandidatesRespectBlocks(t *testing.T) {
	f, _ := newFreezer()
	now := time.Now()
	items := answers(3 * components.ChunkSize)
	m := components.MarkOf(components.Chunk(items, 0))

	f.block(0, m, now)
	assert.Equal(t, now.Add(retryBlocked), f.blocked[0].until, "first time: tried again after retryBlocked")
	assert.Empty(t, f.candidates(items, nil, "", now, 8))
	assert.Equal(t, []int{0}, f.candidates(items, nil, "", now.Add(retryBlocked+time.Millisecond), 8), "the block expired")

	f.block(0, m, now)
	assert.Equal(t, forever, f.blocked[0].until, "refused again at the same mark: until the reader moves")
	assert.Empty(t, f.candidates(items, nil, "", now.Add(time.Hour), 8))

	items[5].Rev = 1000 // an item of chunk 0 changed
	assert.Equal(t, []int{0}, f.candidates(items, nil, "", now, 8), "a block holds for the items it saw")
}

// A pass is asked for when a timed block expires, and none for a block
// that has expired or holds until the reader moves: a pass asked for at
// once, again and again, would keep an idle page rendering.
func TestFreezeRetriesOnlyForBlocksToCome(t *testing.T) {
	f, _ := newFreezer()
	now := time.Now()
	items := answers(4 * components.ChunkSize)
	_, ok := f.nextRetry(now)
	assert.False(t, ok, "no block")

	f.block(0, components.MarkOf(components.Chunk(items, 0)), now)
	f.block(1, components.MarkOf(components.Chunk(items, 1)), now.Add(time.Second))
	at, ok := f.nextRetry(now)
	require.True(t, ok)
	assert.Equal(t, now.Add(retryBlocked), at, "the earliest")

	at, ok = f.nextRetry(now.Add(retryBlocked))
	require.True(t, ok)
	assert.Equal(t, now.Add(time.Second+retryBlocked), at, "chunk 0's block has expired: chunk 1's")

	_, ok = f.nextRetry(now.Add(time.Hour))
	assert.False(t, ok, "both expired: nothing to retry, though they are kept")
	assert.Len(t, f.blocked, 2)

	f.block(0, components.MarkOf(components.Chunk(items, 0)), now)
	_, ok = f.nextRetry(now.Add(time.Hour))
	assert.False(t, ok, "a block until the reader moves")
}

func TestSettledChunk(t *testing.T) {
	tool := func(s state.ToolStatus) *state.Item {
		return &state.Item{Kind: state.KindTool, Tool: &state.Tool{Status: s}}
	}
	group := func(open bool, steps ...*state.Item) *state.Item {
		return &state.Item{Kind: state.KindGroup, Group: &state.Group{Open: open, Steps: steps}}
	}
	items := answers(3)
	assert.True(t, settledChunk(items, ""))
	assert.True(t, settledChunk(append(items, group(false, tool(state.ToolDone), tool(state.ToolError))), ""))
	assert.False(t, settledChunk(append(items, group(true, tool(state.ToolDone))), ""), "a running group")
	assert.False(t, settledChunk(append(items, group(false, tool(state.ToolActive))), ""), "a tool still running")
	assert.False(t, settledChunk(append(items, tool(state.ToolAwaiting)), ""), "a tool awaiting approval")
	assert.False(t, settledChunk(append(items, group(false, &state.Item{Kind: state.KindApproval})), ""), "an approval card in a group")
	assert.False(t, settledChunk(append(items, &state.Item{Kind: state.KindQuestion}), ""), "a question form")
	assert.False(t, settledChunk(items, "2"), "a copy button showing Copied")
	withApp := tool(state.ToolDone)
	withApp.Tool.App = &state.ToolApp{ResourceURI: "ui://x"}
	assert.False(t, settledChunk(append(items, group(false, withApp)), ""), "an MCP App lives in its frame")
	assert.True(t, settledChunk(items, "7"), "another item's copy button")
}

func TestReconcilePlacesDropsAndGivesUp(t *testing.T) {
	f, d := newFreezer()
	now := time.Now()
	items := answers(4 * components.ChunkSize)
	for i := 0; i < 3; i++ {
		f.marks[i] = components.MarkOf(components.Chunk(items, i))
	}
	d.notYet[2] = true
	items[40].Rev = 500 // chunk 1 changed after it was frozen

	assert.False(t, f.reconcile(items, now))
	assert.Equal(t, []int{0}, d.placed)
	assert.Equal(t, []int{1}, d.dropped, "a chunk whose items changed loses its copy")
	_, frozen := f.marks[1]
	assert.False(t, frozen)
	assert.True(t, f.placed[0])

	// Placed copies are not placed again; a chunk go-app never empties is
	// given up after a few passes, drawn live and blocked.
	gaveUp := false
	for pass := 0; pass < 4 && !gaveUp; pass++ {
		gaveUp = f.reconcile(items, now)
	}
	require.True(t, gaveUp)
	assert.Equal(t, []int{0}, d.placed)
	assert.Equal(t, []int{1, 2}, d.dropped)
	_, frozen = f.marks[2]
	assert.False(t, frozen)
	assert.Equal(t, forever, f.blocked[2].until)
	assert.Equal(t, []int{1}, f.candidates(items, nil, "", now, 8), "0 is frozen, 2 blocked: only 1 (changed) may be taken")

	// Items replaced (a history load): the marks no longer match.
	assert.False(t, f.reconcile(answers(10), now))
	assert.Empty(t, f.marks)
}
