package demo

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The data file is a bbolt database:
//
//	sessions/<id>/meta           JSON sessionMeta
//	sessions/<id>/events/<id>    the event as sent, key = its id, 8 bytes big-endian
//	gone/<id>                    unix time the session expired (a tombstone)
var (
	bucketSessions = []byte("sessions")
	bucketGone     = []byte("gone")
	bucketEvents   = []byte("events")
	keyMeta        = []byte("meta")
)

// sessionMeta is what the data file keeps about a session besides its
// events.
type sessionMeta struct {
	Used   int64  `json:"used"`   // unix seconds of its last use
	Status string `json:"status"` // the agent status after its last stored event
	Bytes  int64  `json:"bytes"`  // the size of its events
}

func eventKey(id int) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], uint64(id))
	return k[:]
}

// openDB opens (or creates) the data file. Another server holding it is
// an error after a second, not a hang.
func openDB(path string) (*bolt.DB, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, NoFreelistSync: true, FreelistType: bolt.FreelistMapType})
	if err != nil {
		if err == bolt.ErrTimeout {
			return nil, fmt.Errorf("data file %s is in use by another server", path)
		}
		return nil, fmt.Errorf("data file %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketSessions, bucketGone} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("data file %s: %w", path, err)
	}
	return db, nil
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
				out.events = append(out.events, append([]byte(nil), v...))
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
			out = append(out, append([]byte(nil), v...))
		}
		return nil
	})
	return out, err
}

// batch is what one flush writes for one session: events first+0, first+1,
// … and its meta.
type batch struct {
	s      *Session
	first  int
	events [][]byte
	meta   sessionMeta
}

// writeBatches writes every batch in one transaction.
func writeBatches(db *bolt.DB, batches []batch) error {
	return db.Update(func(tx *bolt.Tx) error {
		sessions, gone := tx.Bucket(bucketSessions), tx.Bucket(bucketGone)
		for _, bt := range batches {
			id := []byte(bt.s.ID)
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

// expire deletes the sessions unused for maxAge, except those keep names,
// and leaves a tombstone for each, which itself goes after another maxAge.
// It returns how many sessions it deleted.
func expire(db *bolt.DB, now time.Time, maxAge time.Duration, keep func(id string) bool) (int, error) {
	cutoff := now.Add(-maxAge).Unix()
	n := 0
	err := db.Update(func(tx *bolt.Tx) error {
		sessions, gone := tx.Bucket(bucketSessions), tx.Bucket(bucketGone)
		var old [][]byte
		err := sessions.ForEachBucket(func(k []byte) error {
			var m sessionMeta
			json.Unmarshal(sessions.Bucket(k).Get(keyMeta), &m)
			if m.Used < cutoff && !keep(string(k)) {
				old = append(old, append([]byte(nil), k...))
			}
			return nil
		})
		if err != nil {
			return err
		}
		stamp := make([]byte, 8)
		binary.BigEndian.PutUint64(stamp, uint64(now.Unix()))
		for _, k := range old {
			if err := sessions.DeleteBucket(k); err != nil {
				return err
			}
			if err := gone.Put(k, stamp); err != nil {
				return err
			}
		}
		n = len(old)
		var stale [][]byte
		gone.ForEach(func(k, v []byte) error {
			if len(v) == 8 && int64(binary.BigEndian.Uint64(v)) < cutoff {
				stale = append(stale, append([]byte(nil), k...))
			}
			return nil
		})
		for _, k := range stale {
			if err := gone.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	return n, err
}
