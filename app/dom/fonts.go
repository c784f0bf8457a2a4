package dom

// Resolving the conversation's fonts before its first answer.
//
// The first time a page lays out text in a font at a size and weight it
// has not used yet (a strike), the renderer asks the browser process how
// to draw it (on Linux, WebSandboxSupportLinux::GetWebFontRenderStyleForStrike,
// a synchronous call: fontconfig), a wait of milliseconds each, and a
// stream's first render meets several new strikes at once (the answer's
// brand name, a group's title), most of that render's task. So, as it
// makes the Markdown parser, a page resolves the strikes a conversation
// uses while it waits for the first answer (ConversationFonts, warmed in
// idle time: fonts_js.go; figures in docs/performance.md).

// ConversationFonts are the strikes (CSS font shorthands, the families
// as web/stepwise.css names them) that a conversation's items and the
// sources panel draw text in. TestConversationFontsAreWarmed checks that
// they cover every strike the fixtures' conversations show (MathML's
// excepted: its sizes follow the formula's depth).
var ConversationFonts = []string{
	"400 10px var(--font)",        // .stopped-icon
	"600 11px/1 var(--font)",      // .citation, .chip
	"400 12px var(--font)",        // .tool-section-title, .citation-domain
	"600 12px var(--font)",        // .badge
	"400 13px var(--font)",        // .search-count, .search-query, .citation-tip
	"600 13px var(--font)",        // .citation-title
	"400 14px var(--font)",        // .thinking-body, .activity-body
	"italic 400 14px var(--font)", // .thinking-title, small
	"650 14px var(--font)",        // .brand-name
	"400 15px var(--font)",        // answers
	"italic 400 15px var(--font)", // em, .thinking-title
	"500 15px var(--font)",        // .source-title, .activity-name
	"550 15px var(--font)",        // .group-header
	"600 15px var(--font)",        // buttons
	"700 14px var(--font)",        // a table's headers
	"700 15px var(--font)",        // strong, .md-h3
	"700 16px var(--font)",        // the sources panel's title
	"700 17.25px var(--font)",     // .md-h2
	"700 19.5px var(--font)",      // .md-h1
	"700 11px Georgia, serif",     // .notice-icon
	"400 12px var(--mono)",        // .md-code-lang
	"400 13px var(--mono)",        // .tool-details pre
	"400 13.5px var(--mono)",      // code in answers
}
