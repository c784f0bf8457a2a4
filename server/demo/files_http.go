package demo

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"stepwise/state/wire"
)

// uploadIdle is how long an upload may bring nothing before it is
// dropped: the server's read timeout (30 s for a whole request) would cut
// a large file on a slow link, so an upload's deadline moves on with each
// piece instead.
const uploadIdle = 30 * time.Second

// serveUpload takes a file (POST /api/sessions/{id}/files): its bytes are
// the body, its media type the Content-Type, its name the ?name= query
// (docs/protocol-extensions.md#attachments). Like the commands, it refuses
// pages of other origins.
func (h *Handler) serveUpload(w http.ResponseWriter, r *http.Request, session string) {
	if !originAllowed(r, h.OriginPatterns) {
		apiError(w, http.StatusForbidden, "forbidden", "uploads from another origin are refused")
		return
	}
	rc := http.NewResponseController(w)
	progress := func() { rc.SetReadDeadline(time.Now().Add(uploadIdle)) }
	progress()
	f, err := h.Agent.files.upload(session, ClientOf(r), r.URL.Query().Get("name"), r.Header.Get("Content-Type"), r.ContentLength, r.Body, progress)
	if err != nil {
		refuse(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(f)
}

// refuse answers a refused upload or file with its status and error
// object (with the limit, when the refusal is about one).
func refuse(w http.ResponseWriter, err error) {
	var r *Refusal
	if !errors.As(err, &r) {
		apiError(w, http.StatusServiceUnavailable, "unavailable", err.Error())
		return
	}
	body := map[string]any{"type": r.Kind, "message": r.Msg}
	if r.Limit > 0 {
		body["limit"] = r.Limit
	}
	w.Header().Set("Content-Type", "application/json")
	if r.Status >= 400 && r.Status != http.StatusNotFound {
		// The rest of a refused body is not read: the connection goes.
		w.Header().Set("Connection", "close")
	}
	w.WriteHeader(r.Status)
	json.NewEncoder(w).Encode(map[string]any{"error": body})
}

// serveFile sends a file of the session (GET /api/sessions/{id}/files/
// {file_id}) with its type. An image shows in the page (whose CSP allows
// img-src 'self'); anything else is a download, sandboxed should a
// browser open it: nothing in it runs with the page's origin.
func (h *Handler) serveFile(w http.ResponseWriter, r *http.Request, session, id string) {
	f, meta, err := h.Agent.files.open(session, id)
	if err != nil {
		refuse(w, err)
		return
	}
	defer f.Close()
	hdr := w.Header()
	ct := meta.MediaType
	if t, err := wire.ResolveFileType(meta.Name, ct); err == nil && t.Text {
		ct += "; charset=utf-8"
	}
	hdr.Set("Content-Type", ct)
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Cache-Control", "private, max-age=31536000, immutable") // a file id never names other bytes
	hdr.Set("Cross-Origin-Resource-Policy", "same-origin")
	disposition := "attachment"
	if wire.IsImageType(meta.MediaType) {
		disposition = "inline"
		hdr.Set("Content-Security-Policy", "default-src 'none'")
	} else {
		hdr.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	}
	if cd := mime.FormatMediaType(disposition, map[string]string{"filename": meta.Name}); cd != "" {
		disposition = cd
	}
	hdr.Set("Content-Disposition", disposition)
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Now().Add(uploadIdle))
	http.ServeContent(&deadlineWriter{w, rc}, r, "", time.Unix(meta.Created, 0), f)
}

// deadlineWriter moves the write deadline on with each piece written: the
// server's write timeout would cut a large file on a slow link.
type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
}

func (d *deadlineWriter) Write(p []byte) (int, error) {
	d.rc.SetWriteDeadline(time.Now().Add(uploadIdle))
	return d.ResponseWriter.Write(p)
}

var _ io.Writer = (*deadlineWriter)(nil)

// isFileEndpoint reports whether an endpoint is a file's:
// files/{file_id}.
func isFileEndpoint(endpoint string) (string, bool) {
	id, ok := strings.CutPrefix(endpoint, "files/")
	return id, ok && id != "" && !strings.Contains(id, "/")
}
