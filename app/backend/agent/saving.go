package agent

import "errors"

// What the AG-UI and AI SDK backends save when the browser's storage is full
// (docs/interaction.md, "What survives a reload"): the newest turns that
// fit. A turn starts with a message of the user's; the oldest turns are
// left out first, the newest is never cut. What is shown is never
// touched: only what a reload brings back is shorter, and the page says so
// (Trimmed is kept with the conversation, and a reload says it too).

// ErrStorageFull: the browser's quota for the site is full.
var ErrStorageFull = errors.New("the browser's storage for this site is full")

// turnStarts are the indexes where the saved conversation can be cut (see
// state's TurnStarts).
func (rec Saved) turnStarts() []int {
	switch {
	case rec.AGUI != nil:
		return rec.AGUI.TurnStarts()
	case rec.UI != nil:
		return rec.UI.TurnStarts()
	}
	return nil
}

// withoutOldestTurns is rec with its n oldest turns left out; Trimmed
// counts the messages left out.
func (rec Saved) withoutOldestTurns(n int) Saved {
	starts := rec.turnStarts()
	if n <= 0 || len(starts) == 0 {
		return rec
	}
	cut := starts[min(n, len(starts))-1]
	switch {
	case rec.AGUI != nil:
		c := rec.AGUI.From(cut)
		rec.AGUI = &c
	case rec.UI != nil:
		c := rec.UI.From(cut)
		rec.UI = &c
	}
	rec.Trimmed += cut
	return rec
}

// saveNewestTurns stores rec with put; when the storage is full, it
// stores it with as few of its oldest turns left out as fit, starting
// from `from` turns (what the last save left out: a conversation only
// grows), and returns how many it left out. When not even the newest turn
// fits, it returns ErrStorageFull and what was stored before stays. A
// failed put stores nothing (the transaction is aborted), so what is
// stored at the end is the last put that succeeded.
func saveNewestTurns(put func(Saved) error, rec Saved, from int) (int, error) {
	most := len(rec.turnStarts())
	lo := min(max(from, 0), most)
	err := put(rec.withoutOldestTurns(lo))
	if !errors.Is(err, ErrStorageFull) || lo == most {
		return lo, err
	}
	// lo does not fit; find the fewest turns left out that do.
	hi := most
	if err := put(rec.withoutOldestTurns(hi)); err != nil {
		return lo, err
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		switch err := put(rec.withoutOldestTurns(mid)); {
		case err == nil:
			hi = mid
		case errors.Is(err, ErrStorageFull):
			lo = mid
		default:
			return hi, err // what is stored is the last that fitted
		}
	}
	return hi, nil
}
