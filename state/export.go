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

// ExportMarkdown writes the conversation shown (the items of its path) as
// Markdown: each message under its author's heading, the answer's text
// as the agent wrote it, a user's files and pictures by name, a group of
// steps as a list of its tools with how each ended, errors quoted.
// Thinking and cards are left out: what was said, not how.
func ExportMarkdown(items []*Item, l ExportLabels) string {
	var b strings.Builder
	if l.Title != "" {
		b.WriteString("# " + oneLine(l.Title) + "\n")
	}
	speaker := ""
	head := func(who string) {
		if who != speaker {
			speaker = who
			b.WriteString("\n## " + who + "\n")
		}
		b.WriteString("\n")
	}
	for _, it := range items {
		switch it.Kind {
		case KindUser:
			head(l.User)
			b.WriteString(strings.TrimSpace(it.Text) + "\n")
			for _, a := range it.Attachments {
				b.WriteString("\n- 📎 " + oneLine(a.Name) + " (" + a.MediaType + ", " + strconv.FormatInt(a.Size, 10) + " B)\n")
			}
			speaker = l.User
		case KindText:
			if strings.TrimSpace(it.Text) != "" {
				head(l.Agent)
				b.WriteString(strings.TrimSpace(it.Text) + "\n")
			}
		case KindGroup:
			head(l.Agent)
			title := it.Group.Title()
			if title == "" {
				title = l.Working
			}
			b.WriteString("**" + oneLine(title) + "**\n\n")
			for _, st := range it.Group.Steps {
				if st.Tool != nil {
					b.WriteString("- " + oneLine(st.Tool.Label) + " (" + string(st.Tool.Status) + ")\n")
				}
			}
		case KindTool:
			head(l.Agent)
			b.WriteString("- " + oneLine(it.Tool.Label) + " (" + string(it.Tool.Status) + ")\n")
		case KindImage:
			head(l.Agent)
			b.WriteString(pictureMarkdown(it.Image, l.Image) + "\n")
		case KindError:
			head(l.Agent)
			b.WriteString("> ⚠ " + oneLine(it.Text) + "\n")
		}
	}
	return strings.TrimLeft(b.String(), "\n")
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
