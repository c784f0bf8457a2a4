//go:build browser

package browsertest

import (
	"os"
	"path/filepath"
	"testing"
)

// writeShot keeps a screenshot under testdata/screens (ignored by git) for
// a person to look at.
func writeShot(t *testing.T, name string, png []byte) {
	t.Helper()
	dir := filepath.Join("..", "..", "testdata", "screens")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
