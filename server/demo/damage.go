package demo

import (
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A damaged data file (truncated, or with flipped bytes) makes bbolt panic
// on the first page it cannot read, and opened for writing it reads every
// page in a goroutine of its own (it rebuilds its free list so), where the
// panic cannot be recovered and kills the server ("assertion failed: Page
// expected"). So the file is read whole first, through a read-only handle,
// in a goroutine that turns a bad page or a fault on the mapped file into
// an error. An empty file is damage too: bbolt would make it a new, empty
// data file and every conversation would be gone without a word.

// DamagedError is a data file that cannot be read.
type DamagedError struct {
	Path  string
	Cause error
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("data file %s is damaged: %v", e.Path, e.Cause)
}

func (e *DamagedError) Unwrap() error { return e.Cause }

// checkDataFile reads every page of the data file at path, if there is
// one.
func checkDataFile(path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("data file %s: %w", path, err)
	case st.Size() == 0:
		return &DamagedError{path, errors.New("it is empty (0 bytes)")}
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	switch {
	case errors.Is(err, bolt.ErrTimeout):
		return inUseError(path)
	case err != nil:
		return &DamagedError{path, err}
	}
	defer db.Close()
	done := make(chan error, 1)
	go func() {
		debug.SetPanicOnFault(true) // a page beyond the end of a truncated file
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("%v", p)
			}
		}()
		done <- db.View(func(tx *bolt.Tx) error {
			return tx.ForEach(func(_ []byte, b *bolt.Bucket) error { return readBucket(b) })
		})
	}()
	if err := <-done; err != nil {
		return &DamagedError{path, err}
	}
	return nil
}

// readBucket reads every key and value of b and of the buckets in it.
func readBucket(b *bolt.Bucket) error {
	return b.ForEach(func(k, v []byte) error {
		if v == nil {
			if nested := b.Bucket(k); nested != nil {
				return readBucket(nested)
			}
		}
		return nil
	})
}

// setAside moves a damaged data file out of the way, to
// PATH.damaged-TIME, and returns where.
func setAside(path string, now time.Time) (string, error) {
	aside := path + ".damaged-" + now.UTC().Format("20060102-150405")
	if err := os.Rename(path, aside); err != nil {
		return "", err
	}
	log.Printf("demo: the damaged data file %s was moved to %s; starting with an empty one", path, aside)
	return aside, nil
}

// recoverDamage turns a bbolt panic (a page the check did not reach) into
// a DamagedError.
func recoverDamage(path string, err *error) {
	if p := recover(); p != nil {
		*err = &DamagedError{path, fmt.Errorf("%v", p)}
	}
}
