package state

import "stepwise/state/wire"

// UploadLimits are the deployment's bounds on the files of one message
// (docs/protocol-extensions.md#attachments): the page checks a file
// against them before it uploads it; the backend checks again.
type UploadLimits struct {
	FileBytes    int64 // one file; 0: none may be attached
	Files        int   // files of one message
	MessageBytes int64 // all the files of one message
}

// Why a file cannot join a message (CheckUpload); each has its sentence in
// the page's catalogues ("upload.err." + the kind).
const (
	UploadUnsupported = "unsupported_type"
	UploadEmpty       = "empty_file"
	UploadTooLarge    = "too_large"
	UploadTooMany     = "too_many_files"
	UploadMessageFull = "message_too_large"
	UploadOff         = "uploads_off"
)

// CheckUpload says why a file (its name, the type the browser gives, its
// size) cannot join a message that already holds files files of
// heldBytes bytes: "" when it can. Its bytes are checked by the backend,
// which also sees what a name hides.
func CheckUpload(lim UploadLimits, name, mediaType string, size int64, files int, heldBytes int64) string {
	switch _, err := wire.ResolveFileType(name, mediaType); {
	case lim.FileBytes <= 0:
		return UploadOff
	case err != nil:
		return UploadUnsupported
	case size == 0:
		return UploadEmpty
	case size > lim.FileBytes:
		return UploadTooLarge
	case lim.Files > 0 && files >= lim.Files:
		return UploadTooMany
	case lim.MessageBytes > 0 && heldBytes+size > lim.MessageBytes:
		return UploadMessageFull
	}
	return ""
}
