//go:build !(js && wasm)

package replay

import "stepwise/app/backend"

// Outside the browser nothing plays.
func play(cfg Config, page Page, deliver func(backend.Event)) {}
