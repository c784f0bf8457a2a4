//go:build !(js && wasm)

package backend

// WatchNetwork needs a browser: elsewhere the network is there.
func WatchNetwork(changed func(online bool)) (online bool) { return true }
