package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"20MiB": 20 << 20, "512KiB": 512 << 10, "1000": 1000, "1.5MB": 1_500_000,
		"2GiB": 2 << 30, "0": 0, "off": 0, " 3 MiB ": 3 << 20, "10B": 10} {
		got, err := parseSize(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "x", "-1", "20XB", "1e30"} {
		_, err := parseSize(in)
		assert.Error(t, err, in)
	}
}

// The server's upload limits are the pages' (their settings) and the demo
// agent's (it refuses past them).
func TestUploadFlags(t *testing.T) {
	s := startServer(t, append(demoArgs(t), "-max-upload", "1KiB", "-max-upload-files", "3", "-max-upload-message", "2KiB")...)
	_, _, body := get(t, s.URL+"/app.js", nil)
	assert.Contains(t, body, `"STEPWISE_PAGE_MAX_UPLOAD_BYTES":"1024"`)
	assert.Contains(t, body, `"STEPWISE_PAGE_MAX_UPLOAD_FILES":"3"`)
	assert.Contains(t, body, `"STEPWISE_PAGE_MAX_MESSAGE_UPLOAD_BYTES":"2048"`)
	post := func(n int) (int, string) {
		resp, err := http.Post(s.URL+"/api/sessions/up/files?name=a.txt", "text/plain", bytes.NewReader(bytes.Repeat([]byte("a"), n)))
		require.NoError(t, err)
		defer resp.Body.Close()
		var out struct {
			Error struct{ Type string } `json:"error"`
		}
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out.Error.Type
	}
	code, _ := post(1024)
	assert.Equal(t, http.StatusCreated, code)
	code, kind := post(1025)
	assert.Equal(t, http.StatusRequestEntityTooLarge, code)
	assert.Equal(t, "too_large", kind)

	s = startServer(t, append(demoArgs(t), "-max-upload", "0")...)
	_, _, body = get(t, s.URL+"/app.js", nil)
	assert.Contains(t, body, `"STEPWISE_PAGE_MAX_UPLOAD_BYTES":"0"`)
	code, kind = post(10)
	assert.Equal(t, http.StatusForbidden, code)
	assert.Equal(t, "uploads_off", kind)
}
