//go:build linux || darwin

package demo

import (
	"path/filepath"
	"syscall"
)

// diskFree is the space left on the disk that holds dir (or its nearest
// existing parent); ok is false when it cannot be told.
func diskFree(dir string) (int64, bool) {
	var st syscall.Statfs_t
	for {
		if err := syscall.Statfs(dir, &st); err == nil {
			return int64(st.Bavail) * int64(st.Bsize), true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return 0, false
		}
		dir = parent
	}
}
