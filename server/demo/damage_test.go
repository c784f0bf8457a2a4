package demo

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dataFile makes a data file of a few sessions and returns its bytes.
func dataFile(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stepwise.db")
	a, err := Open(path, testScenarios(t), Options{})
	require.NoError(t, err)
	a.Speed = 200
	for i := range 30 {
		s, err := a.Attach(fmt.Sprint("s", i))
		require.NoError(t, err)
		require.NoError(t, a.Handle(s, message("/error")))
		settle(t, s)
		s.Detach()
	}
	require.NoError(t, a.Close())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

// damages are ways a data file gets damaged.
func damages(data []byte) map[string][]byte {
	flipped := bytes2(data)
	for i := 3 * 4096; i+11 < len(flipped); i += 4096 {
		flipped[i+10] ^= 0xff // page headers: their ids
		flipped[i+11] ^= 0xff
	}
	metas := bytes2(data)
	metas[40] ^= 0xff
	metas[4096+40] ^= 0xff
	return map[string][]byte{
		"empty":          {},
		"truncated-tiny": data[:5000],
		"truncated-half": data[:len(data)/2],
		"flipped pages":  flipped,
		"both metas":     metas,
	}
}

func bytes2(b []byte) []byte { return append([]byte(nil), b...) }

// A damaged data file is an error that names it, never a panic; with
// SetAsideDamaged it is moved aside and the agent starts anew.
func TestDamagedDataFile(t *testing.T) {
	data := dataFile(t)
	for name, damaged := range damages(data) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "stepwise.db")
			require.NoError(t, os.WriteFile(path, damaged, 0o600))
			_, err := Open(path, testScenarios(t), Options{})
			var de *DamagedError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, path, de.Path)
			assert.Contains(t, err.Error(), "data file "+path+" is damaged")
			kept, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, damaged, kept, "the file is left as it was")

			a := openAgent(t, path, Options{SetAsideDamaged: true})
			aside, _ := filepath.Glob(path + ".damaged-*")
			require.Len(t, aside, 1)
			moved, err := os.ReadFile(aside[0])
			require.NoError(t, err)
			assert.Equal(t, damaged, moved)
			s := attach(t, a, "new")
			require.NoError(t, a.Handle(s, message("/error")))
			settle(t, s)
		})
	}
	// An intact file is left alone by SetAsideDamaged.
	path := filepath.Join(t.TempDir(), "stepwise.db")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	a := openAgent(t, path, Options{SetAsideDamaged: true})
	assert.NotEmpty(t, mustEvents(t, a, "s3"))
	aside, _ := filepath.Glob(path + ".damaged-*")
	assert.Empty(t, aside)
}
