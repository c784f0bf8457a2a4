package replay

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the goldens of state/testdata/upstream from replay's output (read the diff before committing it)")

// upstreamDir holds the streams recorded in the upstream projects' own test
// suites (its README.md files name each source), one folder per project;
// handmadeDir the few written by hand where none records a case.
const (
	upstreamDir = "../../state/testdata/upstream"
	handmadeDir = "../../state/testdata/handmade"
)

// upstreamGolden is the golden view model of a fixture: its name without
// the capture's extension, plus .view.json.
func upstreamGolden(fixture string) string {
	base := fixture
	for _, ext := range []string{".chunks.txt", ".jsonl", ".sse"} {
		if strings.HasSuffix(base, ext) {
			base = strings.TrimSuffix(base, ext)
			break
		}
	}
	return base + ".view.json"
}

func upstreamFixtures(t *testing.T) []string {
	var fixtures []string
	for _, root := range []string{upstreamDir, handmadeDir} {
		fixtures = append(fixtures, fixturesIn(t, root)...)
	}
	return fixtures
}

func fixturesIn(t *testing.T, root string) []string {
	var fixtures []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if name == "README.md" || strings.HasSuffix(name, ".view.json") {
			return nil
		}
		fixtures = append(fixtures, path)
		return nil
	})
	require.NoError(t, err)
	return fixtures
}

// TestUpstreamStreams replays every upstream fixture and compares the whole
// view model with its golden, exactly. Each golden was checked by hand
// against what that backend's own reference client makes of the stream
// (docs/backends.md says how); -update rewrites them, to be read as a diff.
func TestUpstreamStreams(t *testing.T) {
	fixtures := upstreamFixtures(t)
	require.GreaterOrEqual(t, len(fixtures), 150)
	for _, f := range fixtures {
		rel, _ := filepath.Rel(filepath.Dir(upstreamDir), f)
		t.Run(rel, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.Equal(t, 0, Run([]string{"--events", f}, nil, &stdout, &stderr), stderr.String())
			golden := upstreamGolden(f)
			if *update {
				require.NoError(t, os.WriteFile(golden, stdout.Bytes(), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "no golden: run go test ./server/replay -run TestUpstreamStreams -update, then read it")
			require.JSONEq(t, string(want), stdout.String())
		})
	}
}

// Every golden belongs to a fixture, and every folder names its sources.
func TestUpstreamGoldensHaveFixtures(t *testing.T) {
	have := map[string]bool{}
	for _, f := range upstreamFixtures(t) {
		have[upstreamGolden(f)] = true
	}
	for _, root := range []string{upstreamDir, handmadeDir} {
		checkFolder(t, root, have)
	}
}

func checkFolder(t *testing.T, root string, have map[string]bool) {
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != upstreamDir {
				entries, _ := os.ReadDir(path)
				hasFiles := false
				for _, e := range entries {
					hasFiles = hasFiles || !e.IsDir()
				}
				if hasFiles {
					_, err := os.Stat(filepath.Join(path, "README.md"))
					require.NoError(t, err, "%s names no sources", path)
				}
			}
			return nil
		}
		if strings.HasSuffix(path, ".view.json") {
			require.True(t, have[path], "%s has no fixture", path)
			var v map[string]json.RawMessage
			data, _ := os.ReadFile(path)
			require.NoError(t, json.Unmarshal(data, &v), path)
		}
		return nil
	})
	require.NoError(t, err)
}
