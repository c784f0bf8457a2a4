package components

import (
	"fmt"
	"time"
)

// deadline is when a form expires: timeout after its created_at, or after
// shown when the backend sent none.
func deadline(createdAt string, shown time.Time, timeoutSeconds float64) time.Time {
	start, err := time.Parse(time.RFC3339, createdAt)
	if err != nil {
		start = shown
	}
	return start.Add(time.Duration(timeoutSeconds * float64(time.Second)))
}

// formatRemaining shows a countdown as m:ss.
func formatRemaining(d time.Duration) string {
	s := int(max(d, 0).Round(time.Second) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
