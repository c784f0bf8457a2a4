package demo

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image.DecodeConfig reads their dimensions
	_ "image/jpeg"
	_ "image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"stepwise/state/wire"
)

// The files people attach to their messages
// (docs/protocol-extensions.md#attachments). They are kept beside the data
// file, in a folder of their own (DATA.files/SESSION/FILE_ID.bin, with
// FILE_ID.json saying what it is), not in it:
//
//   - an upload streams to its file a piece at a time and is never held
//     whole; in the data file, each piece would be a bbolt transaction
//     holding the one write lock, and every run's events would wait behind
//     a large upload;
//   - a bbolt file never shrinks: a deleted upload would stay on the disk;
//   - a full disk: an upload that cannot be written is deleted and refused
//     (storage_full) without touching the data file, whose runs go on
//     (storage.go's mode is the data file's). Uploads stop while the disk
//     has less than UploadLimits.DiskReserveBytes free, so that the
//     conversations' own writes keep their room.
//
// A file belongs to its session: it goes when the session expires, and the
// uploads to a session that never came to exist go after an hour. A
// session's files count apart from its log's 8 MiB (MaxSessionBytes).

// UploadLimits bound what people may attach; zero values take the
// defaults below.
type UploadLimits struct {
	// MaxFileBytes bounds one file (the server's -max-upload); a negative
	// value turns uploads off.
	MaxFileBytes int64
	// MaxMessageFiles and MaxMessageBytes bound the files of one message.
	MaxMessageFiles int
	MaxMessageBytes int64
	// MaxSessionBytes bounds all of one session's files.
	MaxSessionBytes int64
	// ClientBytesPerHour bounds what one client (ClientOf) uploads in an
	// hour (an allowance that refills evenly).
	ClientBytesPerHour int64
	// DiskReserveBytes is the free space uploads leave on the disk.
	DiskReserveBytes int64
}

// The default limits.
const (
	DefaultMaxUploadBytes         = 20 << 20
	DefaultMaxMessageFiles        = 10
	DefaultMaxMessageBytes        = 50 << 20
	DefaultMaxSessionFileBytes    = 200 << 20
	DefaultClientUploadBytesPerHr = 1 << 30
	DefaultDiskReserveBytes       = 256 << 20
)

// withDefaults fills the zero limits.
func (l UploadLimits) withDefaults() UploadLimits {
	def := func(v *int64, d int64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&l.MaxFileBytes, DefaultMaxUploadBytes)
	def(&l.MaxMessageBytes, DefaultMaxMessageBytes)
	def(&l.MaxSessionBytes, DefaultMaxSessionFileBytes)
	def(&l.ClientBytesPerHour, DefaultClientUploadBytesPerHr)
	def(&l.DiskReserveBytes, DefaultDiskReserveBytes)
	if l.MaxMessageFiles == 0 {
		l.MaxMessageFiles = DefaultMaxMessageFiles
	}
	return l
}

// Enabled reports whether people may attach files at all.
func (l UploadLimits) Enabled() bool { return l.MaxFileBytes >= 0 }

// Refusal is an upload or a message refused for its files: Status is
// the HTTP status, Kind the error type the page words.
type Refusal struct {
	Status int
	Kind   string
	Msg    string
	// Limit is the limit in bytes (or files) the refusal is about, 0 if
	// none.
	Limit int64
}

func (e *Refusal) Error() string { return e.Msg }

// Is makes errors.Is match on the kind: errors.Is(err, ErrFileNotFound).
func (e *Refusal) Is(target error) bool {
	t, ok := target.(*Refusal)
	return ok && t.Kind == e.Kind
}

// The refusals about files (their kinds: docs/protocol-extensions.md).
var (
	ErrEmptyFile       = &Refusal{Status: 400, Kind: "empty_file", Msg: "The file is empty."}
	ErrUnsupportedFile = &Refusal{Status: 415, Kind: "unsupported_type", Msg: "This type of file cannot be attached: images (PNG, JPEG, WebP, GIF), PDF, text, Markdown, CSV and JSON can."}
	ErrFileMismatch    = &Refusal{Status: 422, Kind: "type_mismatch", Msg: "The file is not what its name or type says."}
	ErrUploadCut       = &Refusal{Status: 400, Kind: "incomplete", Msg: "The upload was cut off before the end of the file."}
	ErrFileNotFound    = &Refusal{Status: 404, Kind: "not_found", Msg: "This file is not here (any more): attach it again."}
	ErrUploadsOff      = &Refusal{Status: 403, Kind: "uploads_off", Msg: "This server takes no files."}
	ErrTooManyUploads  = &Refusal{Status: 429, Kind: "too_many_uploads", Msg: "Too many files are being uploaded at once: wait for them, then try again."}
	ErrStorageFull     = &Refusal{Status: 507, Kind: "storage_full", Msg: "The server has no room for this file right now."}
)

func errFileTooLarge(limit int64) error {
	return &Refusal{Status: 413, Kind: "too_large", Limit: limit,
		Msg: fmt.Sprintf("The file is larger than %s, the most this server takes.", byteSize(limit))}
}

func errTooManyFiles(limit int) error {
	return &Refusal{Status: 400, Kind: "too_many_files", Limit: int64(limit),
		Msg: fmt.Sprintf("A message takes %d files at most.", limit)}
}

func errMessageFilesTooLarge(limit int64) error {
	return &Refusal{Status: 413, Kind: "too_large", Limit: limit,
		Msg: fmt.Sprintf("The files of one message may weigh %s at most.", byteSize(limit))}
}

func errSessionFilesFull(limit int64) error {
	return &Refusal{Status: 413, Kind: "quota_exceeded", Limit: limit,
		Msg: fmt.Sprintf("This conversation holds %s of files, the most it may: start a new one.", byteSize(limit))}
}

func errClientUploads(limit int64) error {
	return &Refusal{Status: 429, Kind: "too_many_uploads", Limit: limit,
		Msg: fmt.Sprintf("You have uploaded %s in the last hour, the most this server takes: try again later.", byteSize(limit))}
}

// byteSize writes a size for people: 20 MB, 512 KB, 300 bytes.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MB"
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// fileMeta is what FILE_ID.json keeps.
type fileMeta struct {
	ID string `json:"id"`
	wire.FileInfo
	Created int64 `json:"created"` // unix seconds
}

// info is what a page shows of it: its URL relative to the history's.
func (m fileMeta) info() wire.FileInfo {
	fi := m.FileInfo
	fi.URL = "files/" + m.ID
	return fi
}

// fileStore keeps the uploads.
type fileStore struct {
	dir string
	lim UploadLimits
	now func() time.Time

	mu        sync.Mutex
	used      map[string]int64 // a session's files' bytes (uploads in progress reserved), once counted
	uploading map[string]int   // uploads in progress per session
	clients   map[string]*byteAllowance
}

type byteAllowance struct {
	left float64
	at   time.Time
}

// maxUploadsPerSession bounds the uploads one session has in progress.
const maxUploadsPerSession = 6

// uploadHead is how much of a file's start is read before the rest: its
// signature and, for an image, its dimensions.
const uploadHead = 128 << 10

// orphanAge is how long files wait for the session they were uploaded to
// to come to exist.
const orphanAge = time.Hour

var fileIDPattern = regexp.MustCompile(`^f_[0-9a-f]{24}$`)

func newFileStore(dir string, lim UploadLimits, now func() time.Time) *fileStore {
	return &fileStore{dir: dir, lim: lim.withDefaults(), now: now,
		used: map[string]int64{}, uploading: map[string]int{}, clients: map[string]*byteAllowance{}}
}

// cleanName is a file's name as kept: its last path element, without
// control characters, at most 200 bytes; "file" when nothing is left.
func cleanName(name string) string {
	name = strings.ToValidUTF8(name, "")
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	for len(name) > 200 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "" || name == "." || name == ".." {
		return "file"
	}
	return name
}

// upload stores a file sent for session by client: name and declared type
// as sent, length the body's length (-1 when unknown). body is read a
// piece at a time; progress, when not nil, is called after each piece (the
// server lifts its read deadline there).
func (fs *fileStore) upload(session, client, name, declared string, length int64, body io.Reader, progress func()) (wire.UploadedFile, error) {
	if !fs.lim.Enabled() {
		return wire.UploadedFile{}, ErrUploadsOff
	}
	name = cleanName(name)
	ft, err := wire.ResolveFileType(name, declared)
	switch {
	case errors.Is(err, wire.ErrTypeMismatch):
		return wire.UploadedFile{}, ErrFileMismatch
	case err != nil:
		return wire.UploadedFile{}, ErrUnsupportedFile
	case length == 0:
		return wire.UploadedFile{}, ErrEmptyFile
	case length > fs.lim.MaxFileBytes:
		return wire.UploadedFile{}, errFileTooLarge(fs.lim.MaxFileBytes)
	}
	want := length
	if want < 0 {
		want = fs.lim.MaxFileBytes
	}
	if err := fs.reserve(session, client, want); err != nil {
		return wire.UploadedFile{}, err
	}
	var size int64
	defer func() { fs.release(session, client, want, size) }()

	dir := filepath.Join(fs.dir, session)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return wire.UploadedFile{}, storageErr(err)
	}
	tmp, err := os.CreateTemp(dir, ".up-*")
	if err != nil {
		return wire.UploadedFile{}, storageErr(err)
	}
	defer func() {
		if tmp != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	head, size, err := fs.copyChecked(tmp, body, ft, progress)
	if err != nil {
		return wire.UploadedFile{}, err
	}
	if length >= 0 && size != length {
		return wire.UploadedFile{}, ErrUploadCut
	}
	meta := fileMeta{ID: newFileID(), Created: fs.now().Unix(),
		FileInfo: wire.FileInfo{Name: name, MediaType: ft.MediaType, Size: size}}
	if ft.Image {
		w, h, err := imageSize(ft.MediaType, head)
		if err != nil && len(head) < uploadHead {
			return wire.UploadedFile{}, ErrFileMismatch // the whole file was read: not an image
		}
		meta.Width, meta.Height = w, h
	}
	if err := tmp.Sync(); err != nil {
		return wire.UploadedFile{}, storageErr(err)
	}
	if err := tmp.Close(); err != nil {
		return wire.UploadedFile{}, storageErr(err)
	}
	bin := filepath.Join(dir, meta.ID+".bin")
	if err := os.Rename(tmp.Name(), bin); err != nil {
		return wire.UploadedFile{}, storageErr(err)
	}
	tmp = nil
	if err := writeFileSynced(filepath.Join(dir, meta.ID+".json"), meta); err != nil {
		os.Remove(bin)
		return wire.UploadedFile{}, storageErr(err)
	}
	syncDir(dir)
	return wire.UploadedFile{FileID: meta.ID, FileInfo: meta.info()}, nil
}

// copyChecked copies body to f, a piece at a time, checking that it is
// what ft says (its signature, and for text, every piece) and within the
// size limit. It returns the file's first bytes (at most uploadHead) and
// its size.
func (fs *fileStore) copyChecked(f *os.File, body io.Reader, ft wire.FileType, progress func()) (head []byte, size int64, err error) {
	head = make([]byte, uploadHead)
	n, err := readFull(body, head, progress)
	head = head[:n]
	switch {
	case err != nil:
		return nil, 0, err
	case n == 0:
		return nil, 0, ErrEmptyFile
	}
	if wire.CheckFileHead(ft, head) != nil {
		return nil, 0, ErrFileMismatch
	}
	var tc wire.TextCheck
	if ft.Text && !tc.Write(head) {
		return nil, 0, ErrFileMismatch
	}
	if int64(n) > fs.lim.MaxFileBytes {
		return nil, 0, errFileTooLarge(fs.lim.MaxFileBytes)
	}
	if _, err := f.Write(head); err != nil {
		return nil, 0, storageErr(err)
	}
	size = int64(n)
	if n == uploadHead {
		buf := make([]byte, 32<<10)
		for {
			m, rerr := body.Read(buf)
			if m > 0 {
				size += int64(m)
				if size > fs.lim.MaxFileBytes {
					return nil, 0, errFileTooLarge(fs.lim.MaxFileBytes)
				}
				if ft.Text && !tc.Write(buf[:m]) {
					return nil, 0, ErrFileMismatch
				}
				if _, err := f.Write(buf[:m]); err != nil {
					return nil, 0, storageErr(err)
				}
				if progress != nil {
					progress()
				}
			}
			if rerr == io.EOF {
				break
			}
			if rerr != nil {
				return nil, 0, ErrUploadCut
			}
		}
	}
	if ft.Text && !tc.Done() {
		return nil, 0, ErrFileMismatch
	}
	return head, size, nil
}

// readFull fills buf from r, or reads r to its end: unlike io.ReadFull, a
// reader that fails (a client gone) is told from one that ends (EOF).
func readFull(r io.Reader, buf []byte, progress func()) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if m > 0 && progress != nil {
			progress()
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, ErrUploadCut
		}
	}
	return n, nil
}

// storageErr is a write that failed: the disk is full, or cannot be
// written.
func storageErr(err error) error {
	if errors.Is(err, syscall.ENOSPC) {
		return ErrStorageFull
	}
	return &Refusal{Status: 503, Kind: "unavailable", Msg: "The server cannot keep files right now: try again later."}
}

func newFileID() string {
	var b [12]byte
	rand.Read(b[:])
	return "f_" + hex.EncodeToString(b[:])
}

func writeFileSynced(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	f.Close()
	return os.Rename(tmp, path)
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// reserve counts an upload of want bytes against the session's and the
// client's limits and the disk's room, or says which refuses it.
func (fs *fileStore) reserve(session, client string, want int64) error {
	if free, ok := diskFree(fs.dir); ok && free-want < fs.lim.DiskReserveBytes {
		return ErrStorageFull
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.uploading[session] >= maxUploadsPerSession {
		return ErrTooManyUploads
	}
	used, ok := fs.used[session]
	if !ok {
		used = fs.sessionBytes(session)
	}
	if used+want > fs.lim.MaxSessionBytes {
		fs.used[session] = used
		return errSessionFilesFull(fs.lim.MaxSessionBytes)
	}
	al := fs.clients[client]
	now := fs.now()
	if al == nil {
		if len(fs.clients) >= maxTrackedClients {
			fs.forgetRefilled(now)
		}
		al = &byteAllowance{left: float64(fs.lim.ClientBytesPerHour), at: now}
		fs.clients[client] = al
	}
	fs.refill(al, now)
	if al.left < float64(want) {
		return errClientUploads(fs.lim.ClientBytesPerHour)
	}
	al.left -= float64(want)
	fs.used[session] = used + want
	fs.uploading[session]++
	return nil
}

// release ends an upload that reserved want bytes and kept size.
func (fs *fileStore) release(session, client string, want, size int64) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.used[session] += size - want
	if fs.uploading[session]--; fs.uploading[session] <= 0 {
		delete(fs.uploading, session)
	}
	if al := fs.clients[client]; al != nil && want > size {
		al.left = math.Min(float64(fs.lim.ClientBytesPerHour), al.left+float64(want-size))
	}
}

func (fs *fileStore) refill(al *byteAllowance, now time.Time) {
	if d := now.Sub(al.at); d > 0 {
		al.left = math.Min(float64(fs.lim.ClientBytesPerHour), al.left+d.Hours()*float64(fs.lim.ClientBytesPerHour))
	}
	al.at = now
}

func (fs *fileStore) forgetRefilled(now time.Time) {
	for c, al := range fs.clients {
		if fs.refill(al, now); al.left >= float64(fs.lim.ClientBytesPerHour) {
			delete(fs.clients, c)
		}
	}
}

// sessionBytes counts a session's files on the disk.
func (fs *fileStore) sessionBytes(session string) int64 {
	entries, _ := os.ReadDir(filepath.Join(fs.dir, session))
	var n int64
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".bin") {
			if fi, err := e.Info(); err == nil {
				n += fi.Size()
			}
		}
	}
	return n
}

// meta reads what a file of session is; ErrFileNotFound when there is no
// such file.
func (fs *fileStore) meta(session, id string) (fileMeta, error) {
	if !fileIDPattern.MatchString(id) || !wire.ValidSessionID(session) {
		return fileMeta{}, ErrFileNotFound
	}
	data, err := os.ReadFile(filepath.Join(fs.dir, session, id+".json"))
	if err != nil {
		return fileMeta{}, ErrFileNotFound
	}
	var m fileMeta
	if json.Unmarshal(data, &m) != nil || m.ID != id {
		return fileMeta{}, ErrFileNotFound
	}
	return m, nil
}

// open opens a file of session for reading.
func (fs *fileStore) open(session, id string) (*os.File, fileMeta, error) {
	m, err := fs.meta(session, id)
	if err != nil {
		return nil, m, err
	}
	f, err := os.Open(filepath.Join(fs.dir, session, id+".bin"))
	if err != nil {
		return nil, m, ErrFileNotFound
	}
	return f, m, nil
}

// firstLines reads a text file's first lines: at most lines of them, and
// 2 KB.
func (fs *fileStore) firstLines(session, id string, lines int) []string {
	f, _, err := fs.open(session, id)
	if err != nil {
		return nil
	}
	defer f.Close()
	buf := make([]byte, 2048)
	n, _ := io.ReadFull(f, buf)
	text := strings.ToValidUTF8(string(buf[:n]), "")
	text = strings.TrimPrefix(text, "\uFEFF")
	all := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if n == len(buf) && len(all) > 1 {
		all = all[:len(all)-1] // the last may be cut
	}
	if len(all) > lines {
		all = all[:lines]
	}
	return all
}

// sweep deletes the files of the sessions keep does not name once they
// are older than orphanAge (expired sessions, uploads to sessions that
// never came to exist), and what a crash left in the others. It returns
// how many sessions' files it deleted.
func (fs *fileStore) sweep(keep func(session string) bool) int {
	entries, err := os.ReadDir(fs.dir)
	if err != nil {
		return 0
	}
	cutoff := fs.now().Add(-orphanAge)
	n := 0
	for _, e := range entries {
		session := e.Name()
		if !e.IsDir() || !wire.ValidSessionID(session) {
			continue
		}
		dir := filepath.Join(fs.dir, session)
		if keep(session) {
			fs.sweepLeftovers(dir, cutoff)
			continue
		}
		if fi, err := e.Info(); err != nil || fi.ModTime().After(cutoff) {
			continue
		}
		fs.mu.Lock()
		busy := fs.uploading[session] > 0
		if !busy {
			delete(fs.used, session)
		}
		fs.mu.Unlock()
		if !busy && os.RemoveAll(dir) == nil {
			n++
		}
	}
	return n
}

// sweepLeftovers deletes an interrupted upload's pieces: temporary files,
// and a file whose description was never written.
func (fs *fileStore) sweepLeftovers(dir string, cutoff time.Time) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		name := e.Name()
		fi, err := e.Info()
		if err != nil || fi.ModTime().After(cutoff) {
			continue
		}
		switch {
		case strings.HasPrefix(name, ".up-"), strings.HasSuffix(name, ".tmp"):
			os.Remove(filepath.Join(dir, name))
		case strings.HasSuffix(name, ".bin"):
			if _, err := os.Stat(filepath.Join(dir, strings.TrimSuffix(name, ".bin")+".json")); err != nil {
				os.Remove(filepath.Join(dir, name))
			}
		}
	}
}

// imageSize reads an image's dimensions from its first bytes.
func imageSize(mediaType string, head []byte) (w, h int, err error) {
	if mediaType == "image/webp" {
		return webpSize(head)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(head))
	if err != nil {
		return 0, 0, err
	}
	return cfg.Width, cfg.Height, nil
}

// webpSize reads a WebP's dimensions: its VP8 (lossy), VP8L (lossless)
// or VP8X (extended) chunk.
func webpSize(b []byte) (int, int, error) {
	bad := errors.New("not a WebP image")
	if len(b) < 30 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, bad
	}
	le24 := func(p []byte) int { return int(p[0]) | int(p[1])<<8 | int(p[2])<<16 }
	switch string(b[12:16]) {
	case "VP8 ":
		// Frame tag (3 bytes), start code 9d 01 2a, then 14-bit sizes.
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return 0, 0, bad
		}
		return int(b[26]) | int(b[27]&0x3f)<<8, int(b[28]) | int(b[29]&0x3f)<<8, nil
	case "VP8L":
		if b[20] != 0x2f {
			return 0, 0, bad
		}
		bits := uint32(b[21]) | uint32(b[22])<<8 | uint32(b[23])<<16 | uint32(b[24])<<24
		return int(bits&0x3fff) + 1, int(bits>>14&0x3fff) + 1, nil
	case "VP8X":
		return le24(b[24:27]) + 1, le24(b[27:30]) + 1, nil
	}
	return 0, 0, bad
}
