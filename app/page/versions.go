package page

import (
	"encoding/json"
	"strings"

	"stepwise/app/backend"
	"stepwise/components"
	"stepwise/state"
)

// A sent message's actions (docs/protocol-extensions.md#branches,
// #feedback): edit it, regenerate an answer, show another version, rate
// an answer. The backend carries them out and says so with events (the
// new version's echo, branch_selected, feedback); a refusal is said in
// the notice.

// command sends a command whose refusal goes to the notice.
func (m *Model) command(make func(id string) backend.Command) {
	id := m.nextID()
	m.sent(sentCommand{id: id})
	m.do(make(id))
}

// editSent sends a new version of a sent message, with the files it
// kept; not while a run goes (the edit button says so).
//
// An edit refused, here or by the backend, opens its editor again with
// the text and why (its form state, components.EditFormKey): what was
// typed is not lost, after a reload neither (the editor's draft).
func (m *Model) editSent(e components.EditCommand) {
	key, text := components.EditFormKey(e.MessageID), strings.TrimSpace(e.Text)
	m.dropForm(key)
	m.formDone(key)
	if m.store.Status() == state.StatusRunning {
		m.editRefused(key, text, &backend.CommandError{Type: "busy"})
		return
	}
	if err := m.check(m.store, text, nil); err != nil { // its files are in the conversation already
		m.editRefused(key, text, err)
		return
	}
	id := m.nextID()
	m.sent(sentCommand{id: id, key: key, edit: true, editText: text})
	m.do(backend.Edit{ID: id, ParentID: e.ParentID, Text: text, Files: sentBlocks(e.Files)})
	m.do(ScrollToEnd{})
}

// editRefused gives an edit's text back to its editor, with why; it is
// its draft again.
func (m *Model) editRefused(key, text string, err error) {
	m.reopenEditor(key, text, m.errorText(err))
	m.formDraft(components.FormDraft{Key: key, Value: text})
}

// reopenEditor has a message's editor open again with text, and why
// when it was refused.
func (m *Model) reopenEditor(key, text, why string) {
	m.editorsReopened++
	n := m.editorsReopened
	m.setForm(key, func(f *components.FormState) { f.Error, f.Restore, f.Reopen = why, text, n })
}

// discardEdit: the reader cancelled an edit; what was typed goes.
func (m *Model) discardEdit(id string) {
	key := components.EditFormKey(id)
	m.dropForm(key)
	m.formDone(key)
}

// export offers the conversation shown as a file: Markdown (who said
// what) or JSON (the view model, REPLAY.md).
func (m *Model) export(format string) {
	name := "conversation"
	if m.id != "" {
		name += "-" + m.id
	}
	if format == "json" {
		b, err := json.Marshal(m.store.View())
		if err == nil {
			m.do(Download{Name: name + ".json", MediaType: "application/json", Text: string(b)})
		}
		return
	}
	agent := m.settings.AgentName
	if agent == "" {
		agent = "Stepwise"
	}
	title := ""
	if users := userTexts(m.store); len(users) > 0 {
		title = TitleFromMessage(users[0])
	}
	md := state.ExportMarkdown(m.store.Items(), state.ExportLabels{
		Title: title, User: m.settings.T("export.you"), Agent: agent,
		Working: m.settings.T("group.working"), Image: m.settings.T("picture.unnamed"),
	})
	m.do(Download{Name: name + ".md", MediaType: "text/markdown", Text: md})
}
