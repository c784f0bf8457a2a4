package native

import (
	"encoding/json"

	"stepwise/app/backend"
	"stepwise/state/wire"
)

// uploadOutcome reads the files endpoint's answer: the file, or its
// refusal (status 0: the request never reached the backend).
func uploadOutcome(id string, status int, body string) backend.Uploaded {
	if status >= 200 && status < 300 {
		var f wire.UploadedFile
		if json.Unmarshal([]byte(body), &f) == nil && f.FileID != "" {
			return backend.Uploaded{ID: id, File: f}
		}
	}
	var refusal struct {
		Error struct {
			Type, Message string
			Limit         int64
		}
	}
	json.Unmarshal([]byte(body), &refusal)
	kind := refusal.Error.Type
	if status == 0 {
		kind = "incomplete"
	}
	return backend.Uploaded{ID: id, Err: &backend.CommandError{Type: kind, Message: refusal.Error.Message}, Limit: refusal.Error.Limit}
}
