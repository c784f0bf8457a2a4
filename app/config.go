// Package app is Stepwise's client as go-app sees it: the Controller (the
// page's component, which wires a backend to the page's model and renders
// the views of package components), its configuration, the one place that
// picks the backend, and the embedding bridge. Data flows one way: the
// backend (app/backend/...) -> the page's update (app/page) ->
// state.Store -> the views' props; the actions the views raise -> the
// page's update -> commands -> the backend, whose outcomes come back the
// same way. Other packages import it as "client" (package components
// never does).
package app

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"stepwise/components"
	"stepwise/state"
	"stepwise/state/wire"
)

// Config is what a page was asked to do, read from its URL.
type Config struct {
	SessionID string
	Lang      string // "" follows the browser
	AgentName string

	// Replay, when set, plays the JSONL file at this URL in the real UI
	// instead of connecting to a backend (../shared/bench/README.md).
	Replay string
	// Rate is the replay's pace: events per second, 0 for as fast as
	// possible ("max").
	Rate float64
	// Warm is how many of the file's first events are applied at once,
	// before the timed run (to measure streaming onto a long conversation).
	Warm int

	FaviconService string // "" turns favicon fallbacks off

	// The deployment's brand (docs/brand.md): an accent colour (#rrggbb;
	// "" for Stepwise's), a logo's URL ("" for the Stepwise mark) and the
	// empty state's suggestions (nil: the demo's scenarios).
	Accent      string
	Logo        string
	Suggestions []string

	// CatalogPath is where the catalogs app.wasm does not hold are
	// fetched from, LANG.json appended.
	CatalogPath string

	// Scenarios are the demo scenario names the server plays (EnvScenarios),
	// ordered for the empty state; nil when it did not say.
	Scenarios []string

	// Backend paths (PROTOCOL.md section 1); {session_id} is replaced.
	HistoryPath  string
	WSPath       string
	EventsPath   string
	CommandsPath string
	Transport    string // "ws" or "sse"
	// FilesPath is where a file is uploaded before the message that
	// carries it (POST; docs/protocol-extensions.md#attachments).
	FilesPath string
	// SessionsPath is the optional list of the caller's sessions (GET; and
	// DELETE SessionsPath/{id} takes one off it): the conversations list
	// merges it with the browser's. "" when the backend has none.
	SessionsPath string

	// Protocol is what the backend speaks: ProtocolStepwise (PROTOCOL.md,
	// the paths above), or an AG-UI agent or AI SDK chat route reached at
	// AgentPath or ChatPath (BACKENDS.md sections 2 to 5).
	Protocol  string
	AgentPath string
	ChatPath  string

	// MaxFrameBytes is the largest client frame (WebSocket message or
	// commands POST) the backend takes; a larger message is refused before
	// it is sent, and stays in the composer. MaxRequestBytes is the same
	// for a run's request in the AG-UI and AI SDK modes, which carries the
	// whole conversation. 0: no limit.
	MaxFrameBytes   int
	MaxRequestBytes int
	// The files a person may attach: MaxUploadBytes bounds one (0: none
	// may be attached), MaxUploadFiles and MaxMessageUploadBytes those of
	// one message. The page checks them before it uploads; the backend
	// checks them again.
	MaxUploadBytes        int64
	MaxUploadFiles        int
	MaxMessageUploadBytes int64
	// FeedbackURL is where ratings go in the AG-UI and AI SDK modes (POST;
	// docs/protocol-extensions.md#feedback); "" offers no thumbs there.
	FeedbackURL string
	// SilenceTimeout: in the AG-UI and AI SDK modes, a run's stream that
	// brings nothing for this long (not a byte, not a keep-alive) is
	// ended with a notice. 0: never.
	SilenceTimeout time.Duration
}

// The protocols a backend may speak (the server's -protocol).
const (
	ProtocolStepwise = "stepwise"
	ProtocolAGUI     = "ag-ui"
	ProtocolAISDK    = "ai-sdk"
)

// DefaultConfig returns the defaults of PROTOCOL.md.
func DefaultConfig() Config {
	return Config{
		AgentName:      "Stepwise",
		FaviconService: state.DefaultFaviconService,
		HistoryPath:    "/api/sessions/{session_id}/history",
		WSPath:         "/api/sessions/{session_id}/ws",
		EventsPath:     "/api/sessions/{session_id}/events",
		CommandsPath:   "/api/sessions/{session_id}/commands",
		FilesPath:      "/api/sessions/{session_id}/files",
		SessionsPath:   "/api/sessions",
		Transport:      "ws",
		Protocol:       ProtocolStepwise,
		AgentPath:      "/api/agent",
		ChatPath:       "/api/chat",
		// The server's own limits: server/demo's MaxFrameBytes and
		// server/agentproxy's MaxBody (app's tests keep them equal).
		MaxFrameBytes:   64 << 10,
		MaxRequestBytes: 32 << 20,
		SilenceTimeout:  DefaultSilenceTimeout,
		// server/demo's UploadLimits defaults (app's tests keep them equal).
		MaxUploadBytes:        20 << 20,
		MaxUploadFiles:        10,
		MaxMessageUploadBytes: 50 << 20,
		CatalogPath:           DefaultCatalogPath,
	}
}

// DefaultSilenceTimeout is Config.SilenceTimeout unless the deployment
// says otherwise: long enough for a model that reasons quietly behind a
// backend that sends no keep-alive, short enough that a hung backend does
// not leave a spinner for good.
const DefaultSilenceTimeout = 2 * time.Minute

// The settings a deployment passes to every page (server flags, through
// go-app's Env): backend paths, transport, agent name, favicon service.
// They are named STEPWISE_PAGE_*: go-app also copies them into the
// server's own environment (its prerender reads them there), where
// STEPWISE_NAME sets the server's flag -name (server/envflags.go), and a
// page setting must never read as a flag in a process started from it.
const (
	EnvHistoryPath    = "STEPWISE_PAGE_HISTORY_PATH"
	EnvWSPath         = "STEPWISE_PAGE_WS_PATH"
	EnvEventsPath     = "STEPWISE_PAGE_EVENTS_PATH"
	EnvCommandsPath   = "STEPWISE_PAGE_COMMANDS_PATH"
	EnvFilesPath      = "STEPWISE_PAGE_FILES_PATH"
	EnvSessionsPath   = "STEPWISE_PAGE_SESSIONS_PATH" // "off" for a backend without the list
	EnvTransport      = "STEPWISE_PAGE_TRANSPORT"
	EnvAgentName      = "STEPWISE_PAGE_AGENT_NAME"
	EnvFaviconService = "STEPWISE_PAGE_FAVICON_SERVICE" // "off" turns the fallback off
	EnvProtocol       = "STEPWISE_PAGE_PROTOCOL"        // stepwise, ag-ui or ai-sdk
	EnvAgentPath      = "STEPWISE_PAGE_AGENT_PATH"
	EnvChatPath       = "STEPWISE_PAGE_CHAT_PATH"
	EnvScenarios      = "STEPWISE_PAGE_SCENARIOS" // the demo's scenario names, comma-separated
	// The brand: accent colour, logo URL, suggestions (one a line), and
	// where the catalogs are (under a base path).
	EnvAccent      = "STEPWISE_PAGE_ACCENT"
	EnvLogo        = "STEPWISE_PAGE_LOGO"
	EnvSuggestions = "STEPWISE_PAGE_SUGGESTIONS"
	EnvCatalogPath = "STEPWISE_PAGE_CATALOG_PATH"
	// The backend's limits, in bytes, when they are not the demo server's
	// (Config.MaxFrameBytes, MaxRequestBytes), and the agent modes'
	// silence timeout in seconds (Config.SilenceTimeout; 0 for none).
	EnvMaxFrameBytes   = "STEPWISE_PAGE_MAX_FRAME_BYTES"
	EnvMaxRequestBytes = "STEPWISE_PAGE_MAX_REQUEST_BYTES"
	EnvSilenceTimeout  = "STEPWISE_PAGE_SILENCE_TIMEOUT"
	// The files a person may attach (Config.MaxUploadBytes, ...): bytes
	// per file (0: none), files and bytes per message.
	EnvMaxUploadBytes        = "STEPWISE_PAGE_MAX_UPLOAD_BYTES"
	EnvMaxUploadFiles        = "STEPWISE_PAGE_MAX_UPLOAD_FILES"
	EnvMaxMessageUploadBytes = "STEPWISE_PAGE_MAX_MESSAGE_UPLOAD_BYTES"
	EnvFeedbackURL           = "STEPWISE_PAGE_FEEDBACK_URL"
)

// WithEnv applies the deployment's settings; getenv returns "" for unset.
func (c Config) WithEnv(getenv func(string) string) Config {
	set := func(dst *string, key string) {
		if v := getenv(key); v != "" {
			*dst = v
		}
	}
	set(&c.HistoryPath, EnvHistoryPath)
	set(&c.WSPath, EnvWSPath)
	set(&c.EventsPath, EnvEventsPath)
	set(&c.CommandsPath, EnvCommandsPath)
	set(&c.FilesPath, EnvFilesPath)
	set(&c.FeedbackURL, EnvFeedbackURL)
	set(&c.SessionsPath, EnvSessionsPath)
	if c.SessionsPath == "off" {
		c.SessionsPath = ""
	}
	set(&c.Transport, EnvTransport)
	set(&c.AgentName, EnvAgentName)
	set(&c.AgentPath, EnvAgentPath)
	set(&c.ChatPath, EnvChatPath)
	set(&c.CatalogPath, EnvCatalogPath)
	set(&c.Logo, EnvLogo)
	if v := getenv(EnvAccent); components.BrandColors(v) != nil {
		c.Accent = v
	}
	if v := getenv(EnvSuggestions); v != "" {
		c.Suggestions = suggestionLines(strings.Split(v, "\n"))
	}
	switch p := getenv(EnvProtocol); p {
	case ProtocolAGUI, ProtocolAISDK, ProtocolStepwise:
		c.Protocol = p
	}
	number := func(key string) (int, bool) {
		n, err := strconv.Atoi(getenv(key))
		return n, err == nil && n >= 0
	}
	if n, ok := number(EnvMaxFrameBytes); ok {
		c.MaxFrameBytes = n
	}
	if n, ok := number(EnvMaxRequestBytes); ok {
		c.MaxRequestBytes = n
	}
	if n, ok := number(EnvSilenceTimeout); ok {
		c.SilenceTimeout = time.Duration(n) * time.Second
	}
	if n, err := strconv.ParseInt(getenv(EnvMaxUploadBytes), 10, 64); err == nil && n >= 0 {
		c.MaxUploadBytes = n
	}
	if n, ok := number(EnvMaxUploadFiles); ok {
		c.MaxUploadFiles = n
	}
	if n, err := strconv.ParseInt(getenv(EnvMaxMessageUploadBytes), 10, 64); err == nil && n >= 0 {
		c.MaxMessageUploadBytes = n
	}
	if v := getenv(EnvScenarios); v != "" {
		c.Scenarios = components.ScenarioOrder(strings.Split(v, ","))
	}
	switch v := getenv(EnvFaviconService); v {
	case "":
	case "off":
		c.FaviconService = ""
	default:
		c.FaviconService = v
	}
	return c
}

// ConfigFromURL reads the page's query over the base configuration:
// session, lang, agent, replay, rate, warm, favicons=off, transport=sse.
func ConfigFromURL(base Config, u *url.URL) Config {
	c := base
	q := u.Query()
	c.SessionID = cleanSessionID(q.Get("session"))
	c.Lang = q.Get("lang")
	if a := strings.TrimSpace(q.Get("agent")); a != "" {
		c.AgentName = a
	}
	c.Replay = q.Get("replay")
	if r := q.Get("rate"); r != "" && r != "max" {
		if n, err := strconv.ParseFloat(r, 64); err == nil && n > 0 {
			c.Rate = n
		}
	}
	if w, err := strconv.Atoi(q.Get("warm")); err == nil && w > 0 {
		c.Warm = w
	}
	if q.Get("favicons") == "off" {
		c.FaviconService = ""
	}
	if q.Get("transport") == "sse" {
		c.Transport = "sse"
	}
	// An embed's data- attributes (web/embed.js).
	if a := q.Get("accent"); components.BrandColors(a) != nil {
		c.Accent = a
	}
	if l := q.Get("logo"); safeLogoURL(l) {
		c.Logo = l
	}
	if s := suggestionLines(q["suggestion"]); len(s) > 0 {
		c.Suggestions = s
	}
	return c
}

// maxSuggestions bounds the empty state's suggestions.
const maxSuggestions = 8

// suggestionLines are the non-blank lines, trimmed, at most maxSuggestions.
func suggestionLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && len(out) < maxSuggestions {
			out = append(out, l)
		}
	}
	return out
}

// safeLogoURL: a logo from the URL (an embed's data-logo) is an https or
// same-site image, never a data: or javascript: one.
func safeLogoURL(s string) bool {
	if s == "" {
		return false
	}
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	return u.Scheme == "https" || (u.Scheme == "" && u.Host == "" && strings.HasPrefix(u.Path, "/"))
}

// cleanSessionID keeps the characters wire.ValidSessionID accepts, at most
// wire.MaxSessionIDLen of them, so a mistyped id still names a valid session
// ("" when nothing is left).
func cleanSessionID(id string) string {
	var b strings.Builder
	for _, r := range id {
		if b.Len() == wire.MaxSessionIDLen {
			break
		}
		if wire.ValidSessionID(string(r)) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
