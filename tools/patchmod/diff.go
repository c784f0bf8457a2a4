package main

import (
	"fmt"
	"strconv"
	"strings"
)

// A filePatch is one file's part of a unified diff.
type filePatch struct {
	name    string // path in the patched tree, without a/ or b/
	create  bool   // --- /dev/null
	remove  bool   // +++ /dev/null
	hunks   []hunk
	oldName string
}

// A hunk is one @@ block: the lines it expects (old) and what replaces
// them (new), each with its line ending.
type hunk struct {
	header   string // "@@ -382,7 +393,15 @@"
	oldStart int    // 1-based, as in the header
	old, new []string
}

// parseDiff reads a unified diff (as diff -ru or git diff write it). Text
// before the first file header, and lines such as "diff ..." or "index
// ..." between files, are ignored: a patch may begin with its
// explanation. Hunks are read by their line counts, so a context line
// that lost its leading space (an empty line) still counts.
func parseDiff(text string) ([]filePatch, error) {
	lines := strings.SplitAfter(text, "\n")
	var files []filePatch
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if !strings.HasPrefix(line, "--- ") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
			continue
		}
		oldName, newName := diffName(line[4:]), diffName(lines[i+1][4:])
		f := filePatch{name: newName, oldName: oldName}
		switch {
		case oldName == "/dev/null" && newName == "/dev/null":
			return nil, fmt.Errorf("line %d: a file header with /dev/null on both sides", i+1)
		case oldName == "/dev/null":
			f.create = true
		case newName == "/dev/null":
			f.remove, f.name = true, oldName
		}
		i += 2
		for i < len(lines) && strings.HasPrefix(lines[i], "@@ ") {
			h, next, err := parseHunk(lines, i)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.name, err)
			}
			f.hunks = append(f.hunks, h)
			i = next
		}
		if len(f.hunks) == 0 {
			return nil, fmt.Errorf("%s: a file header without hunks (line %d)", f.name, i)
		}
		files = append(files, f)
		i-- // the loop's i++ reads the line after the last hunk
	}
	return files, nil
}

// diffName is the path of a ---/+++ header: the a/ or b/ prefix and any
// tab-separated date removed.
func diffName(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if tab := strings.IndexByte(s, '\t'); tab >= 0 {
		s = s[:tab]
	}
	if s == "/dev/null" {
		return s
	}
	if _, rest, ok := strings.Cut(s, "/"); ok && (strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/")) {
		return rest
	}
	return s
}

func parseHunk(lines []string, i int) (hunk, int, error) {
	header := strings.TrimRight(lines[i], "\r\n")
	var h hunk
	h.header = header
	fields := strings.Fields(header)
	if len(fields) < 4 || fields[0] != "@@" || fields[3] != "@@" || !strings.HasPrefix(fields[1], "-") || !strings.HasPrefix(fields[2], "+") {
		return h, 0, fmt.Errorf("line %d: malformed hunk header %q", i+1, header)
	}
	oldStart, oldCount, err1 := hunkRange(fields[1][1:])
	_, newCount, err2 := hunkRange(fields[2][1:])
	if err1 != nil || err2 != nil {
		return h, 0, fmt.Errorf("line %d: malformed hunk header %q", i+1, header)
	}
	h.oldStart = oldStart
	i++
	for oldCount > 0 || newCount > 0 {
		if i >= len(lines) {
			return h, 0, fmt.Errorf("hunk %q ends early", header)
		}
		line := lines[i]
		kind, body := byte(' '), ""
		if line == "\n" || line == "" {
			body = "\n" // an empty context line, its space stripped
		} else {
			kind, body = line[0], line[1:]
		}
		switch kind {
		case ' ':
			h.old, h.new = append(h.old, body), append(h.new, body)
			oldCount--
			newCount--
		case '-':
			h.old = append(h.old, body)
			oldCount--
		case '+':
			h.new = append(h.new, body)
			newCount--
		case '\\': // "\ No newline at end of file" for the line before
		default:
			return h, 0, fmt.Errorf("hunk %q: unexpected line %q", header, strings.TrimRight(line, "\n"))
		}
		if oldCount < 0 || newCount < 0 {
			return h, 0, fmt.Errorf("hunk %q: more lines than its header counts", header)
		}
		i++
		if i < len(lines) && strings.HasPrefix(lines[i], `\`) {
			// The line just read has no newline at the end of its file.
			if kind == ' ' || kind == '-' {
				h.old[len(h.old)-1] = strings.TrimSuffix(h.old[len(h.old)-1], "\n")
			}
			if kind == ' ' || kind == '+' {
				h.new[len(h.new)-1] = strings.TrimSuffix(h.new[len(h.new)-1], "\n")
			}
			i++
		}
	}
	return h, i, nil
}

// hunkRange reads "start,count" or "start" (count 1).
func hunkRange(s string) (start, count int, err error) {
	a, b, ok := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	count = 1
	if ok {
		count, err = strconv.Atoi(b)
	}
	return start, count, err
}

// A hunkError says which hunk found no match.
type hunkError struct {
	n      int // 1-based among the file's hunks
	header string
}

func (e *hunkError) Error() string {
	return fmt.Sprintf("hunk %d (%s) does not match", e.n, e.header)
}

// apply applies f's hunks to text, each where its lines are exactly
// (no fuzz), at the line its header names or the nearest other line
// after the previous hunk, as patch -F0 does.
func (f filePatch) apply(text string) (string, error) {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []string
	next, offset := 0, 0 // the first line not yet copied; how far the hunks moved
	for n, h := range f.hunks {
		want := h.oldStart - 1 + offset
		if len(h.old) == 0 {
			want = h.oldStart + offset // after line oldStart
		}
		at := -1
		for d := 0; at < 0 && (want-d >= next || want+d+len(h.old) <= len(lines)); d++ {
			for _, p := range []int{want - d, want + d} {
				if p >= next && p+len(h.old) <= len(lines) && equalLines(lines[p:p+len(h.old)], h.old) {
					at = p
					break
				}
			}
		}
		if at < 0 {
			return "", &hunkError{n + 1, h.header}
		}
		out = append(append(out, lines[next:at]...), h.new...)
		next = at + len(h.old)
		offset = at - (h.oldStart - 1)
		if len(h.old) == 0 {
			offset = at - h.oldStart
		}
	}
	return strings.Join(append(out, lines[next:]...), ""), nil
}

func equalLines(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
