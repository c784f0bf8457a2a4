//go:build browser

package browsertest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wasmBudget is the most app.wasm may weigh as served (brotli): the
// guide's 1.9 MB, docs/performance.md's targets.
const wasmBudget = 1_900_000

// TestAppWasmWithinBudget fails when the app.wasm that `make build` made
// (make browser builds it first) is served heavier than wasmBudget: a
// size is deterministic, so it is checked, as the embed's budget is
// (TestEmbedCostsNothingUntilOpened). What each byte pays for is in
// docs/performance.md ("Size").
func TestAppWasmWithinBudget(t *testing.T) {
	web := filepath.Join("..", "..", "web")
	wasm, err := os.ReadFile(filepath.Join(web, "app.wasm"))
	if err != nil {
		t.Fatalf("no app.wasm: run make build (%v)", err)
	}
	br, err := os.Stat(filepath.Join(web, "app.wasm.br"))
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no app.wasm.br (make build runs brotli): %v", err)
		}
		t.Skip("no app.wasm.br: install brotli and run make build")
	}
	made, err := os.ReadFile(filepath.Join(web, "app.wasm.br.sha256"))
	sum := sha256.Sum256(wasm)
	if err != nil || strings.TrimSpace(string(made)) != hex.EncodeToString(sum[:]) {
		t.Fatal("app.wasm.br was not made from this app.wasm: run make build")
	}
	if br.Size() > wasmBudget {
		t.Errorf("app.wasm is %d bytes as served (brotli), %d over the %d budget", br.Size(), br.Size()-wasmBudget, wasmBudget)
	}
	t.Logf("app.wasm: %d bytes brotli, %d raw; %d under the budget", br.Size(), len(wasm), wasmBudget-br.Size())
}
