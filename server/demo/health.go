package demo

import (
	"strconv"

	bolt "go.etcd.io/bbolt"
)

// bucketHealth holds the time of the last health check's write.
var bucketHealth = []byte("health")

// Health reports whether the agent can serve: it is open, and its data
// file takes a write (a small transaction that bbolt writes and syncs, so
// a file gone read-only or a failing disk shows). The server's /healthz
// asks it; probes come every few seconds, so a write each is cheap.
func (a *Agent) Health() error {
	if a.closed.Load() {
		return ErrClosed
	}
	return a.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketHealth)
		if err != nil {
			return err
		}
		return b.Put([]byte("checked"), strconv.AppendInt(nil, a.now().Unix(), 10))
	})
}
