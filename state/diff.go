package state

import "strings"

// LineDiff is the unified diff of two texts, line by line: each line of the
// result starts with ' ' (in both), '-' (only in old) or '+' (only in new).
// The lines both texts start and end with are kept; the ones between are
// removed, then added. An edit replaces one stretch of a file (str_replace
// of old_str by new_str), so this is the diff a reader expects, and small
// code (app.wasm).
func LineDiff(old, new string) []string {
	a, b := splitLines(old), splitLines(new)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	out := make([]string, 0, len(a)+len(b)-pre-suf)
	for i, l := range a {
		if i == len(a)-suf {
			for _, m := range b[pre : len(b)-suf] {
				out = append(out, "+"+m)
			}
		}
		sign := " "
		if i >= pre && i < len(a)-suf {
			sign = "-"
		}
		out = append(out, sign+l)
	}
	if suf == 0 {
		for _, m := range b[pre:] {
			out = append(out, "+"+m)
		}
	}
	return out
}

// splitLines splits text into lines; a final newline ends the last line
// rather than starting an empty one.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}
