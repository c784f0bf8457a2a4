package app

import (
	"maps"
	"sync"
)

// keyValueStore is a browser's key-value storage (localStorage,
// sessionStorage; webStorage in storage_js.go), or memory in tests. Every
// method may fail with ErrStorageRefused: the browser blocks site data
// (reading the storage throws), or the quota is full.
type keyValueStore interface {
	// Get returns the value of key; ok is false when there is none.
	Get(key string) (value string, ok bool, err error)
	Set(key, value string) error
	Remove(key string) error
	// Keys returns every key, in any order.
	Keys() ([]string, error)
}

// memoryKeyValues is a keyValueStore in memory. Refuse makes every call
// fail as a browser that blocks site data does; Quota (when > 0) bounds
// the bytes of keys and values, as a browser's quota does.
type memoryKeyValues struct {
	mu     sync.Mutex
	m      map[string]string
	Refuse bool
	Quota  int
}

func (m *memoryKeyValues) Get(key string) (string, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Refuse {
		return "", false, ErrStorageRefused
	}
	v, ok := m.m[key]
	return v, ok, nil
}

func (m *memoryKeyValues) Set(key, value string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Refuse {
		return ErrStorageRefused
	}
	if m.Quota > 0 {
		size := len(key) + len(value)
		for k, v := range m.m {
			if k != key {
				size += len(k) + len(v)
			}
		}
		if size > m.Quota {
			return ErrStorageRefused
		}
	}
	if m.m == nil {
		m.m = map[string]string{}
	}
	m.m[key] = value
	return nil
}

func (m *memoryKeyValues) Remove(key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Refuse {
		return ErrStorageRefused
	}
	delete(m.m, key)
	return nil
}

func (m *memoryKeyValues) Keys() ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Refuse {
		return nil, ErrStorageRefused
	}
	keys := make([]string, 0, len(m.m))
	for k := range maps.Keys(m.m) {
		keys = append(keys, k)
	}
	return keys, nil
}
