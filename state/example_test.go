package state_test

import (
	"encoding/json"
	"fmt"
	"os"

	"stepwise/state"
	"stepwise/state/wire"
)

// A page loads a session's history, then applies the live events after its
// last_event_id; the view model is what the UI shows.
func ExampleStore() {
	h, err := wire.DecodeHistory([]byte(`{
		"session_id": "s1",
		"agent_status": "running",
		"last_event_id": "41",
		"messages": [{"role": "user", "content": "VNM price?"}]
	}`))
	if err != nil {
		panic(err)
	}
	s := state.New(state.Options{}) // no favicon fallback
	s.LoadHistory(h)

	for _, frame := range []string{
		`{"event_id":"41","type":"ping"}`, // already in the history: dropped
		`{"event_id":"42","type":"message_start","message":{"id":"m1","role":"assistant"}}`,
		`{"event_id":"43","type":"group_start","index":0}`,
		`{"event_id":"44","type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"get_price","input":{"symbol":"VNM"}}}`,
		`{"event_id":"45","type":"content_block_stop","index":1}`,
		`{"event_id":"46","type":"content_block_start","index":2,"content_block":{"type":"tool_result","tool_use_id":"t1","content":"82,000","status":"success"}}`,
		`{"event_id":"47","type":"group_end","index":3,"summary":"Looked up VNM"}`,
		`{"event_id":"48","type":"content_block_start","index":4,"content_block":{"type":"text","text":"VNM is at 82,000."}}`,
		`not JSON`, // counted as skipped, nothing else changes
		`{"event_id":"49","type":"message_stop"}`,
	} {
		ch := s.ApplyJSON([]byte(frame))
		fmt.Printf("%s, %d item(s) to redraw, agent %s\n", ch.Outcome, len(ch.Items), s.Status())
	}

	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	enc.Encode(s.View())
	// Output:
	// dropped, 0 item(s) to redraw, agent running
	// applied, 0 item(s) to redraw, agent running
	// applied, 1 item(s) to redraw, agent running
	// applied, 1 item(s) to redraw, agent running
	// applied, 0 item(s) to redraw, agent running
	// applied, 1 item(s) to redraw, agent running
	// applied, 1 item(s) to redraw, agent running
	// applied, 1 item(s) to redraw, agent running
	// skipped, 0 item(s) to redraw, agent running
	// applied, 1 item(s) to redraw, agent idle
	// {
	//   "agent_status": "idle",
	//   "last_event_id": "49",
	//   "skipped": 1,
	//   "pending": null,
	//   "sources": [],
	//   "items": [
	//     {
	//       "kind": "user",
	//       "text": "VNM price?"
	//     },
	//     {
	//       "kind": "group",
	//       "brand": true,
	//       "open": false,
	//       "title": "Looked up VNM",
	//       "visible": 1,
	//       "steps": [
	//         {
	//           "kind": "tool",
	//           "id": "t1",
	//           "name": "get_price",
	//           "label": "Get price",
	//           "status": "done",
	//           "input": {
	//             "symbol": "VNM"
	//           },
	//           "result": "82,000",
	//           "artifact": null
	//         }
	//       ]
	//     },
	//     {
	//       "kind": "text",
	//       "brand": false,
	//       "text": "VNM is at 82,000.",
	//       "final": false
	//     }
	//   ]
	// }
}
