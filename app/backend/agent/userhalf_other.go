//go:build !(js && wasm)

package agent

import "stepwise/app/backend"

// Outside the browser there is no file to read nor fetch (tests stand in
// for them natively through the pure code in userhalf.go).

func readFile(u backend.Upload, deliver func(backend.Event)) {
	deliver(backend.Uploaded{ID: u.ID, Err: backend.ErrUnsupported})
}

func postJSON(string, []byte) (int, error) { return 0, backend.ErrUnsupported }
