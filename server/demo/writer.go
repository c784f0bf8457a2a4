package demo

import (
	"slices"
	"time"

	"stepwise/state"
)

// The writer stores emitted events in the data file: one transaction (one
// fsync) per flush for every session with something new, so a run of
// thousands of events costs a handful of commits a second, not one each.
// Events go to subscribers only once stored: a kill -9 loses at most the
// events of the flush in progress, which no client has seen, and a
// command is acknowledged only once its events are stored (Handle).

// markDirty asks the writer to store what the session has pending. The
// caller holds s.mu.
func (a *Agent) markDirty(s *Session) {
	a.wmu.Lock()
	a.dirty[s] = struct{}{}
	a.wmu.Unlock()
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// batchLocked is what the session has to store. The caller holds s.mu.
func (s *Session) batchLocked() batch {
	return batch{
		s:      s,
		first:  s.durable + 1,
		events: slices.Clone(s.pending),
		meta: sessionMeta{
			Used: s.used.Unix(), Status: string(s.store.Status()), Bytes: s.bytes,
			Owner: s.owner, Title: s.title, Created: unixMilliOrZero(s.created), Updated: unixMilliOrZero(s.updated),
		},
		version: s.version,
	}
}

// writer flushes whenever woken, until Close; then it flushes a last time.
// While the file cannot be written it tries again every retryEvery, what
// is dirty meanwhile included.
func (a *Agent) writer() {
	defer close(a.writerDone)
	for {
		wake, retry := a.wake, (<-chan time.Time)(nil)
		if a.storageErr() != nil {
			t := time.NewTimer(a.retryEvery)
			wake, retry = nil, t.C
		}
		select {
		case <-wake:
			a.flush()
		case <-retry:
			a.flush()
		case <-a.quit:
			a.flush()
			return
		}
	}
}

// flush stores every dirty session's pending events and meta in one
// transaction, then hands the events to the subscribers. It reports
// whether the write succeeded (on failure, everything stays pending and
// the agent refuses new work: storage.go). While the file cannot be
// written, a flush with nothing to store still writes, to learn whether
// it can again.
func (a *Agent) flush() bool {
	failing := a.storageErr() != nil
	a.wmu.Lock()
	dirty := a.dirty
	a.dirty = map[*Session]struct{}{}
	a.wmu.Unlock()
	if len(dirty) == 0 && !failing {
		return true
	}
	batches := make([]batch, 0, len(dirty))
	for s := range dirty {
		s.mu.Lock()
		if len(s.pending) > 0 || s.inFile {
			batches = append(batches, s.batchLocked())
		}
		s.mu.Unlock()
	}
	if err := a.out.writeBatches(batches); err != nil {
		a.storageFailed(err)
		for _, b := range batches {
			s := b.s
			s.mu.Lock()
			a.markDirty(s)
			s.mu.Unlock()
		}
		return false
	}
	a.storageRecovered()
	for _, b := range batches {
		s := b.s
		s.mu.Lock()
		s.storedLocked(len(b.events), state.AgentStatus(b.meta.Status), time.Unix(b.meta.Used, 0), b.version)
		s.mu.Unlock()
		a.unloadIfUnused(s)
	}
	return true
}
