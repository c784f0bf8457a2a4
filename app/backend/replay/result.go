package replay

import (
	"bytes"
	"sort"

	"stepwise/state/wire"
)

// Result is window.__result of the replay page mode
// (../shared/bench/README.md).
type Result struct {
	Events    int      `json:"events"`
	Ms        float64  `json:"ms"`
	LongTasks int      `json:"longTasks"`
	MaxTask   float64  `json:"maxTask"`
	P50       *float64 `json:"p50"`
	P95       *float64 `json:"p95"`
	DOM       int      `json:"dom"`
	Skipped   int      `json:"skipped"`
}

// SplitLines splits a replayed body into its frames exactly as the
// `stepwise replay` command reads a file (wire.ReadCapture): JSONL lines,
// or Server-Sent Events as captured off the wire, with the browser's own
// SSE parser.
func SplitLines(body []byte) [][]byte {
	var out [][]byte
	_ = wire.ReadCapture(bytes.NewReader(body), func(frame []byte) { out = append(out, frame) })
	return out
}

// Percentile returns the p-th percentile (0..100) of values, nearest rank.
func Percentile(values []float64, p float64) float64 {
	if len(values) == 0 {
		return 0
	}
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	rank := int(p/100*float64(len(s))+0.999999) - 1
	if rank < 0 {
		rank = 0
	}
	if rank >= len(s) {
		rank = len(s) - 1
	}
	return s[rank]
}
