package state

import "strings"

// mermaidKinds are the words a Mermaid source starts with: Mermaid itself
// picks a diagram's kind from its first word.
var mermaidKinds = []string{
	"graph", "flowchart", "sequenceDiagram", "classDiagram", "stateDiagram",
	"stateDiagram-v2", "erDiagram", "journey", "gantt", "pie", "quadrantChart",
	"requirementDiagram", "gitGraph", "mindmap", "timeline", "sankey-beta",
	"xychart-beta", "block-beta", "packet-beta", "kanban", "architecture-beta",
	"radar-beta", "C4Context", "C4Container", "C4Component", "C4Dynamic", "C4Deployment",
}

// DiagramSource splits a diagram_generation activity's content (free
// text: a sentence saying what was generated, then the diagram's source,
// PROTOCOL.md section 8) into that introduction and the Mermaid source.
// The source starts at the first line, at the start or after a blank
// line, whose first word names a Mermaid diagram, or at an init
// directive (%%{). ok is false when no line does: the content stays text.
func DiagramSource(content string) (intro, source string, ok bool) {
	start, blank := 0, true
	for start < len(content) {
		end := strings.IndexByte(content[start:], '\n')
		if end < 0 {
			end = len(content)
		} else {
			end += start
		}
		line := strings.TrimSpace(content[start:end])
		if blank && startsDiagram(line) {
			return strings.TrimSpace(content[:start]), strings.TrimSpace(content[start:]), true
		}
		blank = line == ""
		start = end + 1
	}
	return "", "", false
}

func startsDiagram(line string) bool {
	if strings.HasPrefix(line, "%%{") {
		return true
	}
	word, _, _ := strings.Cut(line, " ")
	for _, k := range mermaidKinds {
		if word == k {
			return true
		}
	}
	return false
}
