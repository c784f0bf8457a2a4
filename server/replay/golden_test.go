package replay

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTranscripts replays every public transcript of testdata/streams and
// every case of testdata/anthropic, and compares the whole view model with
// its NAME.view.json: exactly, not as a subset. The expected files were
// written by reading the streams; a difference is a bug in one or the other,
// never a reason to copy the output over them.
func TestTranscripts(t *testing.T) {
	var goldens []string
	for _, dir := range []string{"testdata/streams", "testdata/anthropic"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.view.json"))
		require.NoError(t, err)
		goldens = append(goldens, files...)
	}
	require.GreaterOrEqual(t, len(goldens), 14)
	for _, golden := range goldens {
		base := strings.TrimSuffix(golden, ".view.json")
		t.Run(filepath.Base(base), func(t *testing.T) {
			var args []string
			if _, err := os.Stat(base + ".history.json"); err == nil {
				args = append(args, "--history", base+".history.json")
			}
			if _, err := os.Stat(base + ".jsonl"); err == nil {
				args = append(args, "--events", base+".jsonl")
			}
			require.NotEmpty(t, args, "no input for %s", golden)
			var stdout, stderr bytes.Buffer
			require.Equal(t, 0, Run(args, nil, &stdout, &stderr), stderr.String())

			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			require.JSONEq(t, string(want), stdout.String())
		})
	}
}

// TestSharedTranscriptsCopied keeps testdata/streams in step with
// ../shared/conformance/streams: every anthropic-* transcript there is here,
// byte for byte, with a golden view.
func TestSharedTranscriptsCopied(t *testing.T) {
	shared, _ := filepath.Glob("../../../shared/conformance/streams/anthropic-*.jsonl")
	if len(shared) == 0 {
		t.Skip("no ../shared checkout beside the project")
	}
	for _, f := range shared {
		want, err := os.ReadFile(f)
		require.NoError(t, err)
		local := filepath.Join("testdata/streams", filepath.Base(f))
		got, err := os.ReadFile(local)
		require.NoError(t, err, "copy %s to testdata/streams", filepath.Base(f))
		require.Equal(t, string(want), string(got), "%s differs from the shared transcript", local)
		_, err = os.Stat(strings.TrimSuffix(local, ".jsonl") + ".view.json")
		require.NoError(t, err, "%s has no golden view", local)
	}
}

// The goldens are JSON a person reads: keep them valid and free of the
// fields the view model never has.
func TestGoldensAreViewModels(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.view.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		var v map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(data, &v), f)
		for _, k := range []string{"agent_status", "last_event_id", "skipped", "pending", "sources", "items"} {
			require.Contains(t, v, k, f)
		}
	}
}
