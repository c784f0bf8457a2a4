// Package statetest holds what tests and benchmarks of more than one
// package share: streams to play.
package statetest

import (
	"encoding/json"
	"fmt"
)

// MixedStream builds the stream of ../shared/bench/gen-events.py with n
// events: groups of five tools whose results arrive in reverse order, each
// followed by a text answer streamed in ten deltas.
func MixedStream(n int) [][]byte {
	var out [][]byte
	emit := func(ev map[string]any) {
		ev["event_id"] = fmt.Sprint(len(out) + 1)
		b, _ := json.Marshal(ev)
		out = append(out, b)
	}
	emit(map[string]any{"type": "message_start", "message": map[string]any{"id": "m", "role": "assistant", "message_type": "chat"}})
	idx := 0
	for g := 1; len(out) < n-2; g++ {
		emit(map[string]any{"type": "group_start", "index": idx})
		idx++
		ids := make([]string, 5)
		for k := range ids {
			ids[k] = fmt.Sprintf("t%d_%d", g, k)
			emit(map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{
				"type": "tool_use", "id": ids[k], "name": "search_stock", "input": map[string]any{"symbol": "VNM"}, "tool_content_message": "Tìm " + ids[k]}})
			emit(map[string]any{"type": "content_block_stop", "index": idx})
			idx++
		}
		for k := len(ids) - 1; k >= 0; k-- {
			emit(map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{
				"type": "tool_result", "tool_use_id": ids[k], "tool_name": "search_stock", "content": "VNM: 82,000", "status": "success"}})
			emit(map[string]any{"type": "content_block_stop", "index": idx})
			idx++
		}
		emit(map[string]any{"type": "group_end", "index": idx, "summary": fmt.Sprintf("Nhóm %d", g)})
		idx++
		emit(map[string]any{"type": "content_block_start", "index": idx, "content_block": map[string]any{"type": "text", "text": ""}})
		for w := 0; w < 10; w++ {
			emit(map[string]any{"type": "content_block_delta", "index": idx, "delta": map[string]any{"type": "text_delta", "text": fmt.Sprintf("từ %d ", w)}})
		}
		emit(map[string]any{"type": "content_block_stop", "index": idx})
		idx++
	}
	emit(map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn"}})
	emit(map[string]any{"type": "message_stop"})
	return out
}
