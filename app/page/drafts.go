package page

import (
	"stepwise/app/persist"
	"stepwise/components"
)

// What is typed and not sent yet survives a reload (docs/interaction.md,
// "What survives a reload"): the composer's text, and the state of the
// forms still waiting, as each view gives it. The page decides what the
// draft holds; KeepDraft has the controller write it (package persist:
// the tab's sessionStorage), and DraftLoaded brings back what was kept.

// draftLoaded puts the kept text back in the composer, and the messages'
// editors that were open with theirs; the forms start from their kept
// state as they are shown (syncForms).
func (m *Model) draftLoaded(d persist.Draft) {
	m.drafts, m.keepDrafts = d, true
	if d.Text != "" {
		m.draft = components.Draft{Text: d.Text, Seq: m.draft.Seq + 1}
	}
	for key, text := range d.Forms {
		if components.IsEditFormKey(key) {
			m.reopenEditor(key, text, "")
		}
	}
}

// keepDraft has the draft written.
func (m *Model) keepDraft() {
	if m.keepDrafts {
		d := m.drafts
		d.Forms = cloneForms(d.Forms)
		m.do(KeepDraft{Draft: d})
	}
}

func cloneForms(f map[string]string) map[string]string {
	if len(f) == 0 {
		return nil
	}
	out := make(map[string]string, len(f))
	for k, v := range f {
		out[k] = v
	}
	return out
}

// draftChanged keeps the composer's text.
func (m *Model) draftChanged(text string) {
	if text == m.drafts.Text {
		return
	}
	m.drafts.Text = text
	m.keepDraft()
}

// formDraft keeps a form's state.
func (m *Model) formDraft(v components.FormDraft) {
	if v.Key == "" || m.drafts.Forms[v.Key] == v.Value {
		return
	}
	if m.drafts.Forms == nil {
		m.drafts.Forms = map[string]string{}
	}
	m.drafts.Forms[v.Key] = v.Value
	m.keepDraft()
}

// draftSent forgets the composer's text once it is sent.
func (m *Model) draftSent() {
	if m.drafts.Text != "" {
		m.drafts.Text = ""
		m.keepDraft()
	}
}

// draftGivenBack keeps a message given back to the composer.
func (m *Model) draftGivenBack(text string) {
	m.drafts.Text = text
	m.keepDraft()
}

// formDone forgets a form's state once it is answered or no longer waits.
func (m *Model) formDone(key string) {
	if _, ok := m.drafts.Forms[key]; ok {
		delete(m.drafts.Forms, key)
		m.keepDraft()
	}
}
