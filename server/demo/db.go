package demo

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The data file is a bbolt database:
//
//	sessions/<id>/meta           JSON sessionMeta
//	sessions/<id>/events/<id>    the event as sent, key = its id, 8 bytes big-endian
//	gone/<id>                    unix time the session expired (a tombstone), 8 bytes
//	                             big-endian, then its owner's hash when it had one
//	owners/<owner>/<id>          the owner's sessions (GET /api/sessions): "live", or
//	                             the tombstone's time (8 bytes) for one that expired
var (
	bucketSessions = []byte("sessions")
	bucketGone     = []byte("gone")
	bucketOwners   = []byte("owners")
	bucketEvents   = []byte("events")
	keyMeta        = []byte("meta")
	listedLive     = []byte("live")
)

// sessionMeta is what the data file keeps about a session besides its
// events.
type sessionMeta struct {
	Used   int64  `json:"used"`   // unix seconds of its last use
	Status string `json:"status"` // the agent status after its last stored event
	Bytes  int64  `json:"bytes"`  // the size of its events

	Owner   string `json:"owner,omitempty"`   // who may list it: the hash of its owner cookie
	Title   string `json:"title,omitempty"`   // its first message, as a list title
	Created int64  `json:"created,omitempty"` // unix milliseconds of its first message
	Updated int64  `json:"updated,omitempty"` // unix milliseconds of its last message
}

// Milliseconds: two messages a second apart or less still sort.
func unixMilliOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func timeOrZero(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

func eventKey(id int) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], uint64(id))
	return k[:]
}

// inUseError says that another server holds the data file (bbolt's lock):
// the demo agent is one process.
func inUseError(path string) error {
	return fmt.Errorf("data file %s is in use by another server: the demo agent's data file serves one process (give each server its own -data; replicas go in front of a -backend)", path)
}

// openDB opens (or creates) the data file. Another server holding it is
// an error after a second, not a hang. A file that holds what the agent
// needs but cannot be written (a full disk) opens, with readOnly saying
// why.
func openDB(path string) (db *bolt.DB, readOnly, err error) {
	if err := checkDataFile(path); err != nil {
		return nil, nil, err
	}
	defer recoverDamage(path, &err)
	db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, NoFreelistSync: true, FreelistType: bolt.FreelistMapType})
	if err != nil {
		if err == bolt.ErrTimeout {
			return nil, nil, inUseError(path)
		}
		return nil, nil, fmt.Errorf("data file %s: %w", path, err)
	}
	buckets := [][]byte{bucketSessions, bucketGone, bucketOwners}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range buckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		complete := db.View(func(tx *bolt.Tx) error {
			for _, b := range buckets {
				if tx.Bucket(b) == nil {
					return bolt.ErrBucketNotFound
				}
			}
			return nil
		}) == nil
		if complete {
			return db, err, nil
		}
		db.Close()
		return nil, nil, fmt.Errorf("data file %s: %w", path, err)
	}
	return db, nil, nil
}

// storedSession is a session as read from the data file.
type storedSession struct {
	meta   sessionMeta
	events [][]byte
	gone   bool // no session, but a tombstone: it expired
	found  bool
}

// readSession reads a whole session.
func readSession(db *bolt.DB, id string) (storedSession, error) {
	var out storedSession
	err := db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSessions).Bucket([]byte(id))
		if b == nil {
			out.gone = tx.Bucket(bucketGone).Get([]byte(id)) != nil
			return nil
		}
		out.found = true
		if err := json.Unmarshal(b.Get(keyMeta), &out.meta); err != nil {
			return fmt.Errorf("session %s: meta: %w", id, err)
		}
		if ev := b.Bucket(bucketEvents); ev != nil {
			return ev.ForEach(func(k, v []byte) error {
				out.events = append(out.events, storedEvent(v))
				return nil
			})
		}
		return nil
	})
	return out, err
}

// readMeta reads a session's meta; ok is false when the file has no such
// session.
func readMeta(db *bolt.DB, id string) (m sessionMeta, ok bool, err error) {
	err = db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSessions).Bucket([]byte(id))
		if b == nil {
			return nil
		}
		ok = true
		return json.Unmarshal(b.Get(keyMeta), &m)
	})
	return m, ok, err
}

// readEvents returns the stored events with ids in (after, upto].
func readEvents(db *bolt.DB, id string, after, upto int) ([][]byte, error) {
	if upto <= after {
		return nil, nil
	}
	out := make([][]byte, 0, upto-after)
	err := db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSessions).Bucket([]byte(id))
		if b == nil {
			return nil
		}
		ev := b.Bucket(bucketEvents)
		if ev == nil {
			return nil
		}
		c := ev.Cursor()
		last := eventKey(upto)
		for k, v := c.Seek(eventKey(after + 1)); k != nil && string(k) <= string(last); k, v = c.Next() {
			out = append(out, storedEvent(v))
		}
		return nil
	})
	return out, err
}

// readPiece returns the stored events from id first on, up to id last,
// at most maxEvents of them and, past the first, maxBytes; and the id of
// the last one it read.
func readPiece(db *bolt.DB, id string, first, last, maxEvents, maxBytes int) (out [][]byte, lastRead int, err error) {
	err = db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketSessions).Bucket([]byte(id))
		if b == nil || b.Bucket(bucketEvents) == nil {
			return nil
		}
		c := b.Bucket(bucketEvents).Cursor()
		end, size := eventKey(last), 0
		for k, v := c.Seek(eventKey(first)); k != nil && bytes.Compare(k, end) <= 0; k, v = c.Next() {
			if len(out) == maxEvents || (len(out) > 0 && size+len(v) > maxBytes) {
				break
			}
			size += len(v)
			out = append(out, storedEvent(v))
			lastRead = int(binary.BigEndian.Uint64(k))
		}
		return nil
	})
	return out, lastRead, err
}

// batch is what one flush writes for one session: events first+0, first+1,
// … and its meta.
type batch struct {
	s       *Session
	first   int
	events  [][]byte
	meta    sessionMeta
	version int // the session's version (Session.version) it carries
}

// writeBatches writes every batch in one transaction.
func writeBatches(db *bolt.DB, batches []batch) error {
	return db.Update(func(tx *bolt.Tx) error {
		sessions, gone := tx.Bucket(bucketSessions), tx.Bucket(bucketGone)
		for _, bt := range batches {
			id := []byte(bt.s.ID)
			if err := moveOwner(tx, id, storedOwner(tx, id), bt.meta.Owner); err != nil {
				return err
			}
			b, err := sessions.CreateBucketIfNotExists(id)
			if err != nil {
				return err
			}
			ev, err := b.CreateBucketIfNotExists(bucketEvents)
			if err != nil {
				return err
			}
			ev.FillPercent = 1 // ids only grow: pack the pages
			for i, e := range bt.events {
				if err := ev.Put(eventKey(bt.first+i), e); err != nil {
					return err
				}
			}
			meta, _ := json.Marshal(bt.meta)
			if err := b.Put(keyMeta, meta); err != nil {
				return err
			}
			if err := gone.Delete(id); err != nil {
				return err
			}
		}
		return nil
	})
}

// storedOwner is the owner the data file has for session id: its meta's,
// or, when it expired, its tombstone's.
func storedOwner(tx *bolt.Tx, id []byte) string {
	if b := tx.Bucket(bucketSessions).Bucket(id); b != nil {
		var m struct {
			Owner string `json:"owner"`
		}
		json.Unmarshal(b.Get(keyMeta), &m)
		return m.Owner
	}
	if t := tx.Bucket(bucketGone).Get(id); len(t) > 8 {
		return string(t[8:])
	}
	return ""
}

// moveOwner lists session id, live, for owner to instead of from (either
// may be ""). It writes only what changes: the writer calls it for every
// batch.
func moveOwner(tx *bolt.Tx, id []byte, from, to string) error {
	owners := tx.Bucket(bucketOwners)
	if from != "" && from != to {
		if err := unlistFrom(owners, from, id); err != nil {
			return err
		}
	}
	if to == "" {
		return nil
	}
	ob := owners.Bucket([]byte(to))
	if ob != nil {
		if bytes.Equal(ob.Get(id), listedLive) {
			return nil // listed already
		}
	} else {
		var err error
		if ob, err = owners.CreateBucket([]byte(to)); err != nil {
			return err
		}
	}
	return ob.Put(id, listedLive)
}

// unlistFrom removes session id from owner's list, and the owner's bucket
// once it is empty.
func unlistFrom(owners *bolt.Bucket, owner string, id []byte) error {
	ob := owners.Bucket([]byte(owner))
	if ob == nil {
		return nil
	}
	if err := ob.Delete(id); err != nil {
		return err
	}
	if k, _ := ob.Cursor().First(); k == nil {
		return owners.DeleteBucket([]byte(owner))
	}
	return nil
}

// runningSessions lists the sessions whose stored log ends with a run
// still going: the server stopped in the middle of it.
func runningSessions(db *bolt.DB) ([]string, error) {
	var ids []string
	err := db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSessions).ForEachBucket(func(k []byte) error {
			var m sessionMeta
			if json.Unmarshal(tx.Bucket(bucketSessions).Bucket(k).Get(keyMeta), &m) == nil && m.Status == "running" {
				ids = append(ids, string(k))
			}
			return nil
		})
	})
	return ids, err
}

// countSessions counts the sessions of the data file.
func countSessions(db *bolt.DB) (int, error) {
	n := 0
	err := db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSessions).ForEachBucket(func([]byte) error { n++; return nil })
	})
	return n, err
}

// expire deletes the sessions unused for maxAge, except those keep names,
// and leaves a tombstone for each, which itself goes after another maxAge.
// It returns how many sessions it deleted.
func expire(db *bolt.DB, now time.Time, maxAge time.Duration, keep func(id string) bool) (int, error) {
	cutoff := now.Add(-maxAge).Unix()
	n := 0
	err := db.Update(func(tx *bolt.Tx) error {
		sessions, gone, owners := tx.Bucket(bucketSessions), tx.Bucket(bucketGone), tx.Bucket(bucketOwners)
		type expired struct {
			id    []byte
			owner string
		}
		var old []expired
		err := sessions.ForEachBucket(func(k []byte) error {
			var m sessionMeta
			json.Unmarshal(sessions.Bucket(k).Get(keyMeta), &m)
			if m.Used < cutoff && !keep(string(k)) {
				old = append(old, expired{append([]byte(nil), k...), m.Owner})
			}
			return nil
		})
		if err != nil {
			return err
		}
		stamp := make([]byte, 8)
		binary.BigEndian.PutUint64(stamp, uint64(now.Unix()))
		for _, e := range old {
			if err := sessions.DeleteBucket(e.id); err != nil {
				return err
			}
			if err := gone.Put(e.id, append(slices.Clip(stamp), e.owner...)); err != nil {
				return err
			}
			// Its owner's list says it is gone, until the tombstone goes.
			if ob := owners.Bucket([]byte(e.owner)); e.owner != "" && ob != nil {
				if err := ob.Put(e.id, stamp); err != nil {
					return err
				}
			}
		}
		n = len(old)
		var stale []expired
		gone.ForEach(func(k, v []byte) error {
			if len(v) >= 8 && int64(binary.BigEndian.Uint64(v[:8])) < cutoff {
				stale = append(stale, expired{append([]byte(nil), k...), string(v[8:])})
			}
			return nil
		})
		for _, e := range stale {
			if err := gone.Delete(e.id); err != nil {
				return err
			}
			if e.owner != "" {
				if err := unlistFrom(owners, e.owner, e.id); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return n, err
}
