package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The brand comes from flags or their variables (suggestions one a line)
// and reaches the prerendered page: its accent's colours, its
// suggestions in place of the demo's scenarios.
func TestBrandFlags(t *testing.T) {
	s := startServerEnv(t, []string{"STEPWISE_ACCENT=#ffe680", "STEPWISE_SUGGESTION=Plan a trip\nSummarise a page"},
		"-addr", "127.0.0.1:0", "-web", fakeWeb(t), "-data", filepath.Join(t.TempDir(), "d.db"), "-agent-name", "Acme", "-logo", "/web/acme.svg")
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/?lang=en", nil)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page := string(body)
	for _, want := range []string{`--brand-accent: #ffe680;`, `--brand-accent-text: #000000;`, `data-brand="on"`, `>Plan a trip</button>`,
		`>Summarise a page</button>`, `src="/web/acme.svg"`, `>Acme</h1>`, "Ask for what you need, or start with one of these:"} {
		assert.Contains(t, page, want)
	}
	assert.NotContains(t, page, `data-scenario=`)
}

func TestBadAccentRefused(t *testing.T) {
	raw, _ := json.Marshal([]string{"-addr", "127.0.0.1:0", "-web", fakeWeb(t), "-data", filepath.Join(t.TempDir(), "d.db"), "-accent", "yellow"})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "STEPWISE_TEST_SERVE="+string(raw))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "served with a bad accent: %s", out)
	assert.Equal(t, 2, exit.ExitCode())
	assert.Contains(t, string(out), `-accent "yellow": not a colour`)
}
