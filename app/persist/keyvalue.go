package persist

// KeyValueStore is a browser's key-value storage (localStorage,
// sessionStorage: browser.WebStorage), or memory in tests (MemoryKeyValues). Every
// method may fail with ErrStorageRefused: the browser blocks site data
// (reading the storage throws), or the quota is full.
type KeyValueStore interface {
	// Get returns the value of key; ok is false when there is none.
	Get(key string) (value string, ok bool, err error)
	Set(key, value string) error
	Remove(key string) error
	// Keys returns every key, in any order.
	Keys() ([]string, error)
}
