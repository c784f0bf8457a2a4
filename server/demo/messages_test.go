package demo

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"stepwise/state"
	"stepwise/state/wire"
)

// shownPath is the store's path: "> text" for a user message, "a" for an
// answer, with its version "i/n".
func shownPath(st *state.Store) []string {
	var out []string
	for _, it := range st.Items() {
		m := it.Message
		if m == nil {
			continue
		}
		tag := "a"
		if it.Kind == state.KindUser {
			tag = "> " + it.Text
		}
		out = append(out, tag+" "+itoa(m.Index)+"/"+itoa(m.Count))
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func fileFrame(t *testing.T, text string, ids ...string) wire.ClientFrame {
	t.Helper()
	var blocks []wire.ContentBlock
	for _, id := range ids {
		blocks = append(blocks, wire.ContentBlock{Type: "document", Source: &wire.BlockSource{Type: "file", FileID: id}})
	}
	raw, _ := json.Marshal(wire.NewUserMessageWith("", text, blocks))
	return frame(string(raw))
}

func jsonFrame(v any) wire.ClientFrame {
	raw, _ := json.Marshal(v)
	return frame(string(raw))
}

// A message with files: the echo describes them, the answer says what it
// received; after a restart the files, the conversation and its versions
// are all there, and a regenerate still knows what the message carried.
func TestMessageWithFilesSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stepwise.db")
	a, err := Open(path, testScenarios(t), Options{})
	require.NoError(t, err)
	a.Speed = 200
	s, err := a.Attach("f")
	require.NoError(t, err)
	pic, err := a.files.upload("f", "c", "chart.png", "image/png", -1, strings.NewReader(string(pngBytes(t, 40, 30))), nil)
	require.NoError(t, err)
	doc, err := a.files.upload("f", "c", "notes.csv", "text/csv", -1, strings.NewReader("name,price\nVNM,82000\nFPT,96000\n"), nil)
	require.NoError(t, err)
	require.NoError(t, a.Handle(s, fileFrame(t, "What are these?", pic.FileID, doc.FileID)))
	st := collect(t, s, "", idle)
	u := st.Items()[0]
	require.Equal(t, state.KindUser, u.Kind)
	assert.Equal(t, "What are these?", u.Text)
	require.Len(t, u.Attachments, 2)
	assert.True(t, u.Attachments[0].Image, "an image is an image block, whatever the frame said")
	assert.Equal(t, 40, u.Attachments[0].Width)
	assert.Equal(t, "files/"+pic.FileID, u.Attachments[0].URL)
	assert.Equal(t, "notes.csv", u.Attachments[1].Name)
	answer := st.Items()[1].Text
	for _, want := range []string{"`chart.png`", "a PNG image", "40 × 30 pixels", "`notes.csv`", "a CSV table", "VNM,82000"} {
		assert.Contains(t, answer, want)
	}
	s.Detach()
	require.NoError(t, a.Close())

	b := openAgent(t, path, Options{})
	s2 := attach(t, b, "f")
	st = collect(t, s2, "", idle)
	require.Len(t, st.Items()[0].Attachments, 2)
	f, meta, err := b.files.open("f", pic.FileID)
	require.NoError(t, err)
	f.Close()
	assert.Equal(t, "chart.png", meta.Name)

	answerID := st.Items()[1].Message.ID
	require.NoError(t, b.Handle(s2, jsonFrame(wire.NewRegenerate("", answerID))))
	st = collect(t, s2, "", func(st *state.Store) bool {
		return idle(st) && st.Items()[1].Message != nil && st.Items()[1].Message.Count == 2
	})
	assert.Equal(t, []string{"> What are these? 1/1", "a 2/2"}, shownPath(st))
	assert.Contains(t, st.Items()[1].Text, "`notes.csv`", "the new version answers the same files")
}

func TestEditRegenerateSelectFeedback(t *testing.T) {
	a := newTestAgent(t)
	s := attach(t, a, "b")
	require.NoError(t, a.Handle(s, message("hello")))
	st := collect(t, s, "", idle)
	ids := st.PathMessageIDs()
	require.Len(t, ids, 2)
	u1, a1 := ids[0], ids[1]
	assert.Equal(t, "m1", u1)
	assert.Equal(t, "m2", a1)

	require.NoError(t, a.Handle(s, message("/markdown")))
	st = collect(t, s, "", func(st *state.Store) bool { return idle(st) && len(st.PathMessageIDs()) == 4 })
	u2, a2 := st.PathMessageIDs()[2], st.PathMessageIDs()[3]
	ref, _, _, _ := st.Message(u2)
	assert.Equal(t, a1, ref.ParentID, "a new message follows the last one shown")

	// Regenerate a2: a second version, shown.
	require.NoError(t, a.Handle(s, jsonFrame(wire.NewRegenerate("", a2))))
	assert.ErrorIs(t, a.Handle(s, jsonFrame(wire.NewRegenerate("", a2))), ErrBusy, "not while a run is going")
	assert.ErrorIs(t, a.Handle(s, jsonFrame(wire.NewSelectBranch("", a2))), ErrBusy)
	st = collect(t, s, "", func(st *state.Store) bool {
		return idle(st) && len(st.PathMessageIDs()) == 4 && st.LastMessageID() != a2
	})
	assert.Equal(t, []string{"> hello 1/1", "a 1/1", "> /markdown 1/1", "a 2/2"}, shownPath(st))

	// Back to the first version.
	require.NoError(t, a.Handle(s, jsonFrame(wire.NewSelectBranch("", a2))))
	st = collect(t, s, "", func(st *state.Store) bool { return st.LastMessageID() == a2 })
	assert.Equal(t, []string{"> hello 1/1", "a 1/1", "> /markdown 1/1", "a 1/2"}, shownPath(st))

	// Edit the first message: a new branch from the start.
	raw, _ := json.Marshal(wire.NewEdit("", "", "/error", nil))
	require.NoError(t, a.Handle(s, frame(string(raw))))
	st = collect(t, s, "", func(st *state.Store) bool { return st.Status() == state.StatusError })
	assert.Equal(t, "> /error 2/2", shownPath(st)[0])
	assert.Len(t, st.PathMessageIDs(), 2)

	// Regenerate is the way out of an error.
	errAnswer := st.LastMessageID()
	require.NoError(t, a.Handle(s, jsonFrame(wire.NewRegenerate("", errAnswer))))
	st = collect(t, s, "", func(st *state.Store) bool { return st.Status() == state.StatusError && st.LastMessageID() != errAnswer })
	assert.Equal(t, []string{"> /error 2/2", "a 2/2"}, shownPath(st))

	// Feedback on an answer, kept and taken back.
	require.NoError(t, a.Handle(s, jsonFrame(wire.NewFeedback("", a1, "down", "  too vague  "))))
	st = collect(t, s, "", func(st *state.Store) bool { ref, _, _, _ := st.Message(a1); return ref.Feedback != nil })
	ref, _, _, _ = st.Message(a1)
	assert.Equal(t, wire.Feedback{Rating: "down", Comment: "too vague"}, *ref.Feedback)
	require.NoError(t, a.Handle(s, jsonFrame(wire.NewSelectBranch("", u1))))
	st = collect(t, s, "", func(st *state.Store) bool { return len(st.PathMessageIDs()) == 4 })
	assert.Equal(t, []string{"> hello 1/2", "a 1/1", "> /markdown 1/1", "a 1/2"}, shownPath(st), "u1 follows the versions last shown")
	ref, _, _, _ = st.Message(a1)
	assert.Equal(t, "down", ref.Feedback.Rating)
	assert.Contains(t, shownFeedback(st), "down", "and shown on the answer's last item")

	// What does not exist (any more) is refused, clearly.
	for _, f := range []wire.ClientFrame{
		jsonFrame(wire.NewRegenerate("", "m999")),
		jsonFrame(wire.NewRegenerate("", u1)), // a user message
		jsonFrame(wire.NewSelectBranch("", "nope")),
		jsonFrame(wire.NewFeedback("", "m999", "up", "")),
		jsonFrame(wire.NewFeedback("", u1, "up", "")),
		frame(`{"type":"user_message","parent_id":"m999","content":"edit of a message that is gone"}`),
	} {
		err := a.Handle(s, f)
		assert.ErrorIs(t, err, ErrMessageNotFound, "%+v", f)
		assert.Equal(t, "not_found", errorKind(err))
	}
	assert.ErrorContains(t, a.Handle(s, frame(`{"type":"feedback","message_id":"`+a1+`","rating":"meh"}`)), "rating")
	assert.ErrorContains(t, a.Handle(s, jsonFrame(wire.NewFeedback("", a1, "up", strings.Repeat("x", MaxFeedbackComment+1)))), "characters")
}

func TestMessageFileLimits(t *testing.T) {
	a := openAgent(t, filepath.Join(t.TempDir(), "stepwise.db"), Options{Uploads: UploadLimits{MaxMessageFiles: 3, MaxMessageBytes: 10}})
	s := attach(t, a, "lim")
	var ids []string
	for i := 0; i < 4; i++ {
		f, err := a.files.upload("lim", "c", "a.txt", "text/plain", 4, strings.NewReader("abcd"), nil)
		require.NoError(t, err)
		ids = append(ids, f.FileID)
	}
	err := a.Handle(s, fileFrame(t, "x", ids...))
	assert.Equal(t, "too_many_files", errorKind(err))
	err = a.Handle(s, fileFrame(t, "x", ids[:3]...))
	assert.Equal(t, "too_large", errorKind(err), "12 bytes over 10")
	err = a.Handle(s, fileFrame(t, "x", "f_000000000000000000000000"))
	assert.Equal(t, "not_found", errorKind(err))
	err = a.Handle(s, fileFrame(t, "x", ids[0]+"/../x"))
	assert.Equal(t, "not_found", errorKind(err))
	// A hundred files at once: refused on their number, before any is read.
	hundred := make([]string, 100)
	for i := range hundred {
		hundred[i] = "f_" + strings.Repeat("0", 22) + itoa(10+i%90)
	}
	assert.Equal(t, "too_many_files", errorKind(a.Handle(s, fileFrame(t, "x", hundred...))))
	// Inline bytes are not the demo's: uploaded first.
	assert.ErrorContains(t, a.Handle(s, frame(`{"type":"user_message","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}}]}`)), "uploaded first")
	// Files alone make a message; nothing at all does not.
	require.NoError(t, a.Handle(s, fileFrame(t, "", ids[0])))
	assert.Error(t, a.Handle(s, frame(`{"type":"user_message","content":[]}`)))
	// The commands endpoint answers with the refusal's status and type.
	srv := httptest.NewServer(&Handler{Agent: a})
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/api/sessions/lim/commands", "application/json", strings.NewReader(`{"type":"regenerate","message_id":"m999"}`))
	require.NoError(t, err)
	var body map[string]map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Equal(t, "not_found", body["error"]["type"])
}

// shownFeedback lists the ratings the items on the path show.
func shownFeedback(st *state.Store) []string {
	var out []string
	for _, it := range st.Items() {
		if m := it.Message; m != nil && m.Feedback != nil {
			out = append(out, m.Feedback.Rating)
		}
	}
	return out
}

// The chart scenario answers with a picture: one a tool's result carries,
// and one in the answer itself, each a PNG sent inline.
func TestChartScenarioAnswersWithAPicture(t *testing.T) {
	a := newTestAgent(t)
	a.Speed = 200
	s := attach(t, a, "c")
	require.NoError(t, a.Handle(s, message("/chart")))
	st := collect(t, s, "", idle)
	var tool, image *state.Item
	for _, it := range st.Items() {
		switch it.Kind {
		case state.KindGroup:
			for _, step := range it.Group.Steps {
				if step.Tool != nil && len(step.Tool.Images) > 0 {
					tool = step
				}
			}
		case state.KindImage:
			image = it
		}
	}
	require.NotNil(t, tool, "a tool's result carries the chart")
	assert.True(t, strings.HasPrefix(tool.Tool.Images[0].URL, "data:image/png;base64,iVBOR"))
	require.NotNil(t, image, "the answer shows it")
	assert.Equal(t, 320, image.Image.Width)
	assert.NotEmpty(t, image.Image.Src)
	assert.Equal(t, state.KindText, st.Items()[len(st.Items())-1].Kind)
}
