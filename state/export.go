package state

import (
	"strconv"
	"strings"
)

// ExportLabels are the words of an exported conversation, in the page's
// language.
type ExportLabels struct {
	Title   string // the conversation's title ("" for none)
	User    string // the person's heading: "You"
	Agent   string // the agent's: its name
	Working string // a group without a title of its own
	Image   string // a picture sent inline (its bytes are not exported)
}

// mdExport gathers an export's pieces; its methods are not inlined
// (each inlined write was a copy of strings.Builder's code).
type mdExport struct {
	parts   []string
	speaker string
}

//go:noinline
func (x *mdExport) add(parts ...string) { x.parts = append(x.parts, parts...) }

// head starts a paragraph of who's, under their heading if the last was
// someone else's.
//
//go:noinline
func (x *mdExport) head(who string) {
	if who != x.speaker {
		x.speaker = who
		x.add("\n## ", who, "\n")
	}
	x.add("\n")
}

// tool is a tool step as a list entry with how it ended.
//
//go:noinline
func (x *mdExport) tool(t *Tool) { x.add("- ", oneLine(t.Label), " (", string(t.Status), ")\n") }

// ExportMarkdown writes the conversation shown (the items of its path) as
// Markdown: each message under its author's heading, the answer's text
// as the agent wrote it, a user's files and pictures by name, a group of
// steps as a list of its tools with how each ended, errors quoted.
// Thinking and cards are left out: what was said, not how.
func ExportMarkdown(items []*Item, l ExportLabels) string {
	var x mdExport
	if l.Title != "" {
		x.add("# ", oneLine(l.Title), "\n")
	}
	for _, it := range items {
		switch it.Kind {
		case KindUser:
			x.head(l.User)
			x.add(strings.TrimSpace(it.Text), "\n")
			for _, a := range it.Attachments {
				x.add("\n- 📎 ", oneLine(a.Name), " (", a.MediaType, ", ", strconv.FormatInt(a.Size, 10), " B)\n")
			}
		case KindText:
			if text := strings.TrimSpace(it.Text); text != "" {
				x.head(l.Agent)
				x.add(text, "\n")
			}
		case KindGroup:
			x.head(l.Agent)
			title := it.Group.Title()
			if title == "" {
				title = l.Working
			}
			x.add("**", oneLine(title), "**\n\n")
			for _, st := range it.Group.Steps {
				if st.Tool != nil {
					x.tool(st.Tool)
				}
			}
		case KindTool:
			x.head(l.Agent)
			x.tool(it.Tool)
		case KindImage:
			x.head(l.Agent)
			x.add(pictureMarkdown(it.Image, l.Image), "\n")
		case KindError:
			x.head(l.Agent)
			x.add("> ⚠ ", oneLine(it.Text), "\n")
		}
	}
	return strings.TrimLeft(strings.Join(x.parts, ""), "\n")
}

// pictureMarkdown is a picture by its URL; one sent inline is named only.
func pictureMarkdown(img *Image, inline string) string {
	name := oneLine(img.Name)
	if name == "" {
		name = inline
	}
	if img.Inline == 0 && IsWebURL(img.Src) {
		return "![" + name + "](<" + img.Src + ">)"
	}
	return "*[" + name + "]*"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
