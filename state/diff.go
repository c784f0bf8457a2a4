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
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	// lcs[i*w+j] is the length of the longest common subsequence of ma[i:]
	// and mb[j:]; nil past the bound, where every changed line is removed,
	// then added.
	w := len(mb) + 1
	var lcs []int32
	if len(ma)*len(mb) <= maxDiffCells {
		lcs = make([]int32, (len(ma)+1)*w)
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
				} else {
					lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
				}
			}
		}
	}
	out := make([]string, 0, len(a)+len(b)-pre-suf)
	for _, l := range a[:pre] {
		out = append(out, " "+l)
	}
	for i, j := 0, 0; i < len(ma) || j < len(mb); {
		sign, line := "+", ""
		switch {
		case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
			sign, line = " ", ma[i]
			i, j = i+1, j+1
		case i < len(ma) && (j == len(mb) || lcs == nil || lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
			sign, line = "-", ma[i]
			i++
		default:
			line = mb[j]
			j++
		}
		out = append(out, sign+line)
	}
	for _, l := range a[len(a)-suf:] {
		out = append(out, " "+l)
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
