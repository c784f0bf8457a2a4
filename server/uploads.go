package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	client "stepwise/app"
	"stepwise/server/demo"
)

// uploadFlags bound the files people attach to their messages
// (docs/protocol-extensions.md#attachments): the demo agent enforces
// them, and every page is told them, to check a file before it uploads
// it (a -backend sets its own and should be given the same here).
type uploadFlags struct {
	maxFile     sizeFlag
	maxFiles    int
	maxMessage  sizeFlag
	maxSession  sizeFlag
	filesPath   string
	clientHour  sizeFlag
	diskReserve sizeFlag
}

func addUploadFlags(fs *flag.FlagSet) *uploadFlags {
	u := &uploadFlags{maxFile: demo.DefaultMaxUploadBytes, maxMessage: demo.DefaultMaxMessageBytes,
		maxSession: demo.DefaultMaxSessionFileBytes, clientHour: demo.DefaultClientUploadBytesPerHr, diskReserve: demo.DefaultDiskReserveBytes}
	fs.Var(&u.maxFile, "max-upload", "the largest `size` of a file attached to a message (20MiB, 512KiB, bytes); 0 turns attachments off")
	fs.IntVar(&u.maxFiles, "max-upload-files", demo.DefaultMaxMessageFiles, "the `number` of files one message may carry")
	fs.Var(&u.maxMessage, "max-upload-message", "the largest `size` of all the files of one message")
	fs.Var(&u.maxSession, "max-upload-session", "the largest `size` of all the files of one demo session")
	fs.Var(&u.clientHour, "max-upload-per-hour", "what one client (IP address) may upload to the demo agent in an hour (`size`)")
	fs.Var(&u.diskReserve, "upload-disk-reserve", "the free `size` the demo agent's uploads leave on the disk, for the conversations' own writes")
	fs.StringVar(&u.filesPath, "files-path", "", "upload `path` of the files attached to a message; {session_id} is replaced (default /api/sessions/{session_id}/files)")
	return u
}

// limits are the demo agent's.
func (u *uploadFlags) limits() demo.UploadLimits {
	maxFile := int64(u.maxFile)
	if maxFile == 0 {
		maxFile = -1 // off
	}
	return demo.UploadLimits{MaxFileBytes: maxFile, MaxMessageFiles: max(u.maxFiles, 1), MaxMessageBytes: int64(u.maxMessage),
		MaxSessionBytes: int64(u.maxSession), ClientBytesPerHour: int64(u.clientHour), DiskReserveBytes: int64(u.diskReserve)}
}

// pageEnv tells the pages the limits (app/config.go).
func (u *uploadFlags) pageEnv(env map[string]string) {
	env[client.EnvMaxUploadBytes] = strconv.FormatInt(int64(u.maxFile), 10)
	env[client.EnvMaxUploadFiles] = strconv.Itoa(max(u.maxFiles, 1))
	env[client.EnvMaxMessageUploadBytes] = strconv.FormatInt(int64(u.maxMessage), 10)
	if u.filesPath != "" {
		env[client.EnvFilesPath] = u.filesPath
	}
}

// sizeFlag is a size in bytes, written 20MiB, 20MB, 512KiB, 1GiB or in
// bytes.
type sizeFlag int64

func (s *sizeFlag) String() string { return strconv.FormatInt(int64(*s), 10) }

func (s *sizeFlag) Set(v string) error {
	n, err := parseSize(v)
	if err != nil {
		return err
	}
	*s = sizeFlag(n)
	return nil
}

func parseSize(v string) (int64, error) {
	t := strings.TrimSpace(v)
	if t == "off" {
		return 0, nil
	}
	units := []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"kB", 1e3}, {"B", 1}}
	mult := int64(1)
	for _, u := range units {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || n < 0 || n*float64(mult) > 1<<50 {
		return 0, fmt.Errorf("%q is not a size (20MiB, 512KiB, a number of bytes)", v)
	}
	return int64(n * float64(mult)), nil
}
