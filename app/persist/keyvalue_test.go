package persist

import (
	"maps"
	"sync"
)

// MemoryKeyValues is a KeyValueStore in memory. Refuse makes every call
// fail as a browser that blocks site data does; Quota (when > 0) bounds
// the bytes of keys and values, as a browser's quota does.
type MemoryKeyValues struct {
	mu     sync.Mutex
	m      map[string]string
	Refuse bool
	Quota  int
}

func (m *MemoryKeyValues) Get(key string) (string, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Refuse {
		return "", false, ErrStorageRefused
	}
	v, ok := m.m[key]
	return v, ok, nil
}

func (m *MemoryKeyValues) Set(key, value string) error {
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

func (m *MemoryKeyValues) Remove(key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Refuse {
		return ErrStorageRefused
	}
	delete(m.m, key)
	return nil
}

func (m *MemoryKeyValues) Keys() ([]string, error) {
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
