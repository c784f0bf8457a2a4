package demo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state/wire"
)

func pngBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, x%h, color.RGBA{200, 30, 30, 255})
	}
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

func jpegBytes(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 8)), nil))
	return b.Bytes()
}

// upload posts a file to the demo's API and decodes the answer.
func upload(t testing.TB, srv *httptest.Server, session, name, contentType string, body []byte) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/api/sessions/"+session+"/files?name="+urlQuery(name), bytes.NewReader(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, out
}

func urlQuery(s string) string {
	return strings.NewReplacer("%", "%25", "&", "%26", "#", "%23", " ", "%20", "+", "%2B", "?", "%3F").Replace(s)
}

func newFilesServer(t *testing.T, opts Options) (*Agent, *httptest.Server) {
	t.Helper()
	a := openAgent(t, filepath.Join(t.TempDir(), "stepwise.db"), opts)
	srv := httptest.NewServer(&Handler{Agent: a})
	t.Cleanup(srv.Close)
	return a, srv
}

func TestUploadAndServe(t *testing.T) {
	a, srv := newFilesServer(t, Options{})
	pic := pngBytes(t, 40, 30)
	code, got := upload(t, srv, "s1", "chart.png", "image/png", pic)
	require.Equal(t, http.StatusCreated, code, got)
	id := got["file_id"].(string)
	assert.Regexp(t, `^f_[0-9a-f]{24}$`, id)
	assert.Equal(t, map[string]any{"file_id": id, "name": "chart.png", "media_type": "image/png", "size": float64(len(pic)),
		"width": 40.0, "height": 30.0, "url": "files/" + id}, got)

	resp, err := srv.Client().Get(srv.URL + "/api/sessions/s1/files/" + id)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, pic, body)
	assert.Equal(t, "image/png", resp.Header.Get("Content-Type"))
	assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
	assert.Equal(t, `inline; filename=chart.png`, resp.Header.Get("Content-Disposition"))
	assert.Equal(t, "same-origin", resp.Header.Get("Cross-Origin-Resource-Policy"))

	// A text file is a download, sandboxed, UTF-8; its name keeps its
	// accents (RFC 2231).
	code, got = upload(t, srv, "s1", "ghi chú.md", "", []byte("# Tiêu đề\nnội dung\n"))
	require.Equal(t, http.StatusCreated, code, got)
	assert.Equal(t, "text/markdown", got["media_type"])
	resp, err = srv.Client().Get(srv.URL + "/api/sessions/s1/files/" + got["file_id"].(string))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, "text/markdown; charset=utf-8", resp.Header.Get("Content-Type"))
	assert.Equal(t, "default-src 'none'; sandbox", resp.Header.Get("Content-Security-Policy"))
	assert.Equal(t, `attachment; filename*=utf-8''ghi%20ch%C3%BA.md`, resp.Header.Get("Content-Disposition"))

	// Another session's file, a made-up id, a path: not found.
	for _, path := range []string{"/api/sessions/s2/files/" + id, "/api/sessions/s1/files/f_000000000000000000000000", "/api/sessions/s1/files/..%2Fx"} {
		resp, err := srv.Client().Get(srv.URL + path)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, path)
	}
	assert.Equal(t, int64(len(pic))+int64(len("# Tiêu đề\nnội dung\n")), a.files.used["s1"])
}

func TestUploadRefusals(t *testing.T) {
	_, srv := newFilesServer(t, Options{Uploads: UploadLimits{MaxFileBytes: 1 << 20}})
	pic := pngBytes(t, 4, 4)
	for _, c := range []struct {
		name, ct string
		body     []byte
		code     int
		kind     string
	}{
		{"photo.png", "image/png", jpegBytes(t), 422, "type_mismatch"},
		{"photo.jpg", "image/jpeg", []byte("GIF89a not really"), 422, "type_mismatch"},
		{"report.pdf", "image/png", pic, 422, "type_mismatch"},
		{"notes.txt", "text/plain", []byte("text\x00with a NUL"), 422, "type_mismatch"},
		{"latin1.txt", "text/plain", []byte("caf\xe9"), 422, "type_mismatch"},
		{"data.json", "application/json", []byte("hello"), 422, "type_mismatch"},
		{"fake.png", "image/png", []byte("\x89PNG\r\n\x1a\nbroken"), 422, "type_mismatch"},
		{"empty.txt", "text/plain", nil, 400, "empty_file"},
		{"run.exe", "application/octet-stream", []byte("MZ"), 415, "unsupported_type"},
		{"logo.svg", "image/svg+xml", []byte("<svg/>"), 415, "unsupported_type"},
		{"page.html", "text/html", []byte("<p>"), 415, "unsupported_type"},
		{"big.txt", "text/plain", bytes.Repeat([]byte("a"), 1<<20+1), 413, "too_large"},
	} {
		code, got := upload(t, srv, "s1", c.name, c.ct, c.body)
		assert.Equal(t, c.code, code, c.name)
		e, _ := got["error"].(map[string]any)
		assert.Equal(t, c.kind, e["type"], c.name)
		assert.NotEmpty(t, e["message"], c.name)
	}
	// The limit is in the refusal, for the page to word.
	_, got := upload(t, srv, "s1", "big.txt", "text/plain", bytes.Repeat([]byte("a"), 1<<20+1))
	assert.Equal(t, float64(1<<20), got["error"].(map[string]any)["limit"])

	// A page of another origin cannot upload.
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/sessions/s1/files?name=a.txt", strings.NewReader("x"))
	req.Header.Set("Origin", "https://evil.example")
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)

	// Accepted: CSV from Windows (application/vnd.ms-excel), Markdown as
	// text/plain, text whose characters straddle the pieces it is read in.
	for _, c := range []struct{ name, ct, body string }{
		{"t.csv", "application/vnd.ms-excel", "a,b\n1,2\n"},
		{"r.md", "text/plain", "# x\n"},
		{"long.txt", "text/plain", strings.Repeat("ế", 100_000)},
		{"d.json", "", ` {"a": 1}`},
	} {
		code, got := upload(t, srv, "s1", c.name, c.ct, []byte(c.body))
		assert.Equal(t, http.StatusCreated, code, "%s: %v", c.name, got)
	}
}

func TestTextCheckAcrossPieces(t *testing.T) {
	text := []byte("a€b😀c")
	for cut1 := 0; cut1 <= len(text); cut1++ {
		for cut2 := cut1; cut2 <= len(text); cut2++ {
			var tc wire.TextCheck
			ok := tc.Write(text[:cut1]) && tc.Write(text[cut1:cut2]) && tc.Write(text[cut2:])
			assert.True(t, ok && tc.Done(), "%d %d", cut1, cut2)
		}
	}
	var tc wire.TextCheck
	assert.True(t, tc.Write([]byte("ab\xe2\x82")))
	assert.False(t, tc.Done(), "a character cut at the end")
	assert.False(t, tc.Write([]byte("x")), "and not completed")
}

// countingReader gives size bytes of text without holding them, and
// counts what was read.
type countingReader struct {
	size, read int64
	fail       int64 // fail with an error (a client gone) once this many were read; 0: never
}

func (r *countingReader) Read(p []byte) (int, error) {
	if r.fail > 0 && r.read >= r.fail {
		return 0, errors.New("connection reset")
	}
	if r.read >= r.size {
		return 0, io.EOF
	}
	n := int64(len(p))
	if n > r.size-r.read {
		n = r.size - r.read
	}
	for i := range p[:n] {
		p[i] = 'a' + byte((r.read+int64(i))%26)
	}
	r.read += n
	return int(n), nil
}

// A 2 GB file: refused on its Content-Length without a byte read; sent
// without one, refused once past the limit, having read no more than the
// limit and a piece. What the server holds meanwhile is its pieces: the
// bytes it allocates stay a small part of what streams through.
func TestLargeUploadsAreBounded(t *testing.T) {
	a := openAgent(t, filepath.Join(t.TempDir(), "stepwise.db"), Options{Uploads: UploadLimits{MaxFileBytes: 64 << 20}})
	const twoGB = 2 << 30
	r := &countingReader{size: twoGB}
	_, err := a.files.upload("big", "c", "huge.txt", "text/plain", twoGB, r, nil)
	var refusal *Refusal
	require.ErrorAs(t, err, &refusal)
	assert.Equal(t, "too_large", refusal.Kind)
	assert.Zero(t, r.read, "refused on its length")

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r = &countingReader{size: twoGB}
	_, err = a.files.upload("big", "c", "huge.txt", "text/plain", -1, r, nil)
	runtime.ReadMemStats(&after)
	require.ErrorAs(t, err, &refusal)
	assert.Equal(t, "too_large", refusal.Kind)
	assert.LessOrEqual(t, r.read, int64(64<<20+64<<10), "read past the limit")
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4<<20), "allocated while streaming %d bytes", r.read)

	// Accepted: 48 MB stream to the disk, the server's allocations small.
	runtime.GC()
	runtime.ReadMemStats(&before)
	r = &countingReader{size: 48 << 20}
	f, err := a.files.upload("big", "c", "ok.txt", "text/plain", 48<<20, r, nil)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Equal(t, int64(48<<20), f.Size)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4<<20), "allocated while storing 48 MB")
	// No piece of the refused uploads is left.
	entries, _ := os.ReadDir(filepath.Join(a.files.dir, "big"))
	assert.Len(t, entries, 2, "ok.txt's .bin and .json")
	assert.Equal(t, int64(48<<20), a.files.used["big"])
}

// An upload cut halfway (the client went): nothing is kept, nothing stays
// reserved.
func TestUploadCutHalfway(t *testing.T) {
	a, srv := newFilesServer(t, Options{})
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	fmt.Fprintf(conn, "POST /api/sessions/cut/files?name=a.txt HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n", 1<<20)
	conn.Write(bytes.Repeat([]byte("x"), 300<<10))
	conn.Close()
	require.Eventually(t, func() bool {
		a.files.mu.Lock()
		defer a.files.mu.Unlock()
		return a.files.uploading["cut"] == 0 && a.files.used["cut"] == 0
	}, 10*time.Second, 10*time.Millisecond)
	entries, _ := os.ReadDir(filepath.Join(a.files.dir, "cut"))
	assert.Empty(t, entries, "no piece of it kept")

	// The same through upload: a reader that fails is "incomplete".
	_, err = a.files.upload("cut", "c", "a.txt", "text/plain", 1<<20, &countingReader{size: 1 << 20, fail: 200 << 10}, nil)
	assert.ErrorIs(t, err, ErrUploadCut)
}

func TestUploadLimitsPerSessionAndClient(t *testing.T) {
	a := openAgent(t, filepath.Join(t.TempDir(), "stepwise.db"), Options{Uploads: UploadLimits{
		MaxFileBytes: 1000, MaxSessionBytes: 2500, ClientBytesPerHour: 4000}})
	up := func(session, client string) error {
		_, err := a.files.upload(session, client, "a.txt", "text/plain", 1000, &countingReader{size: 1000}, nil)
		return err
	}
	require.NoError(t, up("s1", "c1"))
	require.NoError(t, up("s1", "c1"))
	var refusal *Refusal
	require.ErrorAs(t, up("s1", "c1"), &refusal)
	assert.Equal(t, "quota_exceeded", refusal.Kind)
	require.NoError(t, up("s2", "c1"))
	require.NoError(t, up("s3", "c1"))
	require.ErrorAs(t, up("s4", "c1"), &refusal)
	assert.Equal(t, "too_many_uploads", refusal.Kind, "the client's hour is used")
	require.NoError(t, up("s4", "c2"), "another client's is not")
	// Uploads in progress: at most maxUploadsPerSession at once.
	a.files.mu.Lock()
	a.files.uploading["s9"] = maxUploadsPerSession
	a.files.mu.Unlock()
	require.ErrorAs(t, up("s9", "c3"), &refusal)
	assert.Equal(t, "too_many_uploads", refusal.Kind)
}

// The files of a session the data file does not have go after an hour;
// those of a live session stay.
func TestFilesSweep(t *testing.T) {
	a := newTestAgent(t)
	now := time.Now()
	a.now = func() time.Time { return now }
	s := attach(t, a, "live")
	for _, session := range []string{"live", "orphan"} {
		_, err := a.files.upload(session, "c", "a.txt", "text/plain", 2, strings.NewReader("hi"), nil)
		require.NoError(t, err)
	}
	require.NoError(t, a.Handle(s, message("hello")))
	settle(t, s)
	_, err := a.sweep()
	require.NoError(t, err)
	assert.DirExists(t, filepath.Join(a.files.dir, "orphan"), "not an hour old")
	old := now.Add(-2 * time.Hour)
	os.Chtimes(filepath.Join(a.files.dir, "orphan"), old, old)
	os.Chtimes(filepath.Join(a.files.dir, "live"), old, old)
	_, err = a.sweep()
	require.NoError(t, err)
	assert.NoDirExists(t, filepath.Join(a.files.dir, "orphan"))
	assert.DirExists(t, filepath.Join(a.files.dir, "live"))
}

func TestWebPSize(t *testing.T) {
	// A lossless WebP (VP8L) of 3 × 2 and an extended one (VP8X) of 640 × 480.
	vp8l := append([]byte("RIFF\x00\x00\x00\x00WEBPVP8L\x00\x00\x00\x00\x2f"), 0x02, 0x40, 0x00, 0x00)
	vp8l = append(vp8l, make([]byte, 10)...)
	w, h, err := webpSize(vp8l)
	require.NoError(t, err)
	assert.Equal(t, [2]int{3, 2}, [2]int{w, h})
	vp8x := append([]byte("RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00"), 0x7f, 0x02, 0x00, 0xdf, 0x01, 0x00)
	w, h, err = webpSize(vp8x)
	require.NoError(t, err)
	assert.Equal(t, [2]int{640, 480}, [2]int{w, h})
}
