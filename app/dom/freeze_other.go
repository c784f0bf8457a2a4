//go:build !(js && wasm)

package dom

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// newChunkDOM needs a browser: nothing is frozen elsewhere.
func newChunkDOM(app.Context, *Chunks) chunkDOM { return nil }
