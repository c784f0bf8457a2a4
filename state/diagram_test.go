package state

import "testing"

func TestDiagramSource(t *testing.T) {
	for _, tc := range []struct {
		content, intro, source string
		ok                     bool
	}{
		// The example of the activity dialect (seeds, PROTOCOL.md section 8).
		{"project_timeline.png généré et enregistré en PNG avec le contenu suivant :\n\ngantt\n    title Project Timeline\n    section A\n    Task :a1, 2024-01-01, 30d\n",
			"project_timeline.png généré et enregistré en PNG avec le contenu suivant :", "gantt\n    title Project Timeline\n    section A\n    Task :a1, 2024-01-01, 30d", true},
		{"flowchart LR\n  A --> B", "", "flowchart LR\n  A --> B", true},
		{"Saved:\n\n%%{init: {'theme': 'dark'}}%%\ngraph TD\n  A --> B", "Saved:", "%%{init: {'theme': 'dark'}}%%\ngraph TD\n  A --> B", true},
		{"Saved as a picture.\n\r\n  sequenceDiagram\n  A->>B: hi", "Saved as a picture.", "sequenceDiagram\n  A->>B: hi", true},
		// A word of a kind inside a sentence, or not after a blank line: text.
		{"The gantt chart was saved.", "", "", false},
		{"Saved:\ngantt\n  title T", "", "", false},
		{"", "", "", false},
		{"Nothing to draw.\n\nJust words.", "", "", false},
	} {
		intro, source, ok := DiagramSource(tc.content)
		if intro != tc.intro || source != tc.source || ok != tc.ok {
			t.Errorf("DiagramSource(%q) = %q, %q, %v; want %q, %q, %v", tc.content, intro, source, ok, tc.intro, tc.source, tc.ok)
		}
	}
}
