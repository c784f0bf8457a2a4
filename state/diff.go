package state

import "strings"

// maxDiffCells bounds the table LineDiff fills: past it, the changed lines
// show as all removed then all added rather than matched one by one.
const maxDiffCells = 250_000

// LineDiff is the unified diff of two texts, line by line: each line of the
// result starts with ' ' (in both), '-' (only in old) or '+' (only in new),
// in the order a reader goes through the file. Lines common to both ends
// are matched first; the changed middle by its longest common subsequence.
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
	for _, l := range a[:pre] {
		out = append(out, " "+l)
	}
	out = appendChanged(out, a[pre:len(a)-suf], b[pre:len(b)-suf])
	for _, l := range a[len(a)-suf:] {
		out = append(out, " "+l)
	}
	return out
}

// appendChanged appends the diff of the lines between the common ends.
func appendChanged(out, a, b []string) []string {
	if len(a)*len(b) > maxDiffCells || len(a) == 0 || len(b) == 0 {
		for _, l := range a {
			out = append(out, "-"+l)
		}
		for _, l := range b {
			out = append(out, "+"+l)
		}
		return out
	}
	// lcs[i*w+j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			out = append(out, " "+a[i])
			i, j = i+1, j+1
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			out = append(out, "-"+a[i])
			i++
		default:
			out = append(out, "+"+b[j])
			j++
		}
	}
	for ; i < len(a); i++ {
		out = append(out, "-"+a[i])
	}
	for ; j < len(b); j++ {
		out = append(out, "+"+b[j])
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
