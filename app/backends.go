package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"stepwise/app/backend"
	"stepwise/app/backend/agent"
	"stepwise/app/backend/native"
	"stepwise/app/backend/replay"
	"stepwise/app/dom"
	"stepwise/app/persist"
	"stepwise/components"
	"stepwise/state"
)

// The backends a page talks to, by the protocol the deployment names
// (Config.Protocol); the replay page mode plays a file instead. This is
// the one place that knows which there are: the page and the controller
// see a backend.Backend.
var backends = map[string]func(cfg Config, store state.Options) backend.Backend{
	ProtocolStepwise: func(cfg Config, store state.Options) backend.Backend {
		return native.New(native.Config{
			SessionID:    cfg.SessionID,
			HistoryPath:  cfg.HistoryPath,
			WSPath:       cfg.WSPath,
			EventsPath:   cfg.EventsPath,
			CommandsPath: cfg.CommandsPath,
			FilesPath:    cfg.filesPath(),
			SSE:          cfg.Transport == "sse",
			MaxFrame:     cfg.MaxFrameBytes,
			SessionsPath: cfg.SessionsPath,
			Store:        store,
			Shown:        persist.OpenShown(),
		})
	},
	ProtocolAGUI: func(cfg Config, store state.Options) backend.Backend {
		return newAgent(cfg, store, agent.AGUI{Path: cfg.AgentPath})
	},
	ProtocolAISDK: func(cfg Config, store state.Options) backend.Backend {
		return newAgent(cfg, store, agent.AISDK{Path: cfg.ChatPath})
	},
}

func newAgent(cfg Config, store state.Options, p agent.Protocol) backend.Backend {
	return agent.New(agent.Config{
		SessionID:     cfg.SessionID,
		Protocol:      p,
		MaxRequest:    cfg.MaxRequestBytes,
		Silence:       cfg.SilenceTimeout,
		Store:         store,
		Conversations: persist.OpenAgentConversations,
		FeedbackURL:   cfg.FeedbackURL,
	})
}

// appBackends are where the MCP Apps' reads and calls go, by protocol
// (mcphost_backend.go); a native backend's endpoints when the protocol has
// none of its own.
var appBackends = map[string]func(c *Controller, do httpJSON) appBackend{
	ProtocolAGUI: func(c *Controller, do httpJSON) appBackend {
		return aguiAppBackend{do: do, nextID: newSessionID, path: func() (string, string) {
			return c.cfg.AgentPath, c.page.Store().AGUIConversation().ThreadID
		}}
	},
}

// appBackend is where the apps' reads and calls go.
func (c *Controller) appBackend(do httpJSON) appBackend {
	if newAppBackend, ok := appBackends[c.cfg.Protocol]; ok {
		return newAppBackend(c, do)
	}
	return pathAppBackend{do: do, paths: func() (string, string, string) {
		resource, calls := appPaths(c.cfg, app.Getenv)
		return resource, calls, c.cfg.SessionID
	}}
}

// filesPath is where files are uploaded, "" when the deployment takes
// none.
func (c Config) filesPath() string {
	if c.MaxUploadBytes <= 0 {
		return ""
	}
	return c.FilesPath
}

// hasSession: the page opens a session of a backend (a replay has none).
func (c Config) hasSession() bool { return c.Replay == "" }

// newBackend is the backend the configuration names.
func (c *Controller) newBackend() backend.Backend {
	store := state.Options{FaviconService: c.cfg.FaviconService}
	if !c.cfg.hasSession() {
		return replay.New(replay.Config{
			URL: c.cfg.Replay, SessionID: c.cfg.SessionID, Rate: c.cfg.Rate, Warm: c.cfg.Warm,
			MaxFrame: c.cfg.MaxFrameBytes, Store: store,
		}, c.replayPage())
	}
	newBackend, ok := backends[c.cfg.Protocol]
	if !ok {
		newBackend = backends[ProtocolStepwise]
	}
	return newBackend(c.cfg, store)
}

// replayPage is what the replay's player asks of the page. Each is called
// outside go-app's engine work, once the page is mounted.
func (c *Controller) replayPage() replay.Page {
	return replay.Page{
		Rendered: func(done func()) {
			// Defer runs after the render of the frame that follows.
			dom.Dispatch(c.ctx, func(ctx app.Context) { dom.Defer(ctx, func(app.Context) { done() }) })
		},
		Drawing: func() bool {
			drawing := make(chan bool, 1)
			dom.Dispatch(c.ctx, func(app.Context) { drawing <- c.chunks.Drawing() })
			return <-drawing
		},
		// A live page makes its Markdown parser and resolves its fonts
		// while idle before the first answer; a replay plays at once, so
		// it does them first.
		Prepare: func() {
			for _, step := range components.MarkdownWarmUp() {
				step()
			}
			dom.WarmFontsNow()
		},
		Skipped: func() int { return c.page.Store().SkippedCount() },
	}
}
