//go:build !(js && wasm)

package app

// Outside the browser nothing is kept.
func openShownStore() shownStore { return nil }
func tabStorage() keyValueStore  { return nil }
