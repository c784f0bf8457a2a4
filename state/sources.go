package state

import (
	"encoding/json"
	"net/url"
	"strings"

	"stepwise/state/wire"
)

// Source is one web search result.
type Source struct {
	URL     string `json:"url"`
	Title   string `json:"title"`
	Snippet string `json:"snippet,omitempty"`
	Domain  string `json:"domain"`
	Favicon string `json:"favicon"`
}

// SourceGroup is one search in the sources panel.
type SourceGroup struct {
	Query   string   `json:"query"`
	Sources []Source `json:"sources"`
}

// SearchResults reads a web_search tool's artifact as the store shows it
// (domain and favicon filled in); ok is false when it is not a search.
func (s *Store) SearchResults(t *Tool) (SourceGroup, bool) {
	return SearchResultsOf(t, s.opts.FaviconService)
}

// SearchResultsOf is SearchResults with an explicit favicon service.
func SearchResultsOf(t *Tool, faviconService string) (SourceGroup, bool) {
	var w wire.SourceGroup
	if t.Name != "web_search" || wire.IsNull(t.Artifact) || json.Unmarshal(t.Artifact, &w) != nil || w.Sources == nil {
		return SourceGroup{}, false
	}
	return sourceGroupOf(w, faviconService), true
}

// sourceGroupOf is a search as the panel shows it: every source with its
// domain, and a favicon that is a web URL or made by faviconService.
func sourceGroupOf(w wire.SourceGroup, faviconService string) SourceGroup {
	g := SourceGroup{Query: w.Query, Sources: make([]Source, 0, len(w.Sources))}
	for _, ws := range w.Sources {
		src := Source{URL: ws.URL, Title: ws.Title, Snippet: ws.Snippet, Domain: ws.Domain}
		if src.Domain == "" {
			if u, err := url.Parse(ws.URL); err == nil {
				src.Domain = u.Hostname()
			}
		}
		if ws.Favicon != nil && IsWebURL(*ws.Favicon) {
			src.Favicon = *ws.Favicon
		} else if faviconService != "" && src.Domain != "" {
			src.Favicon = strings.ReplaceAll(faviconService, "{domain}", url.QueryEscape(src.Domain))
		}
		g.Sources = append(g.Sources, src)
	}
	return g
}

// IsWebURL reports whether u is an absolute http: or https: URL, the only
// kind made into links or images.
func IsWebURL(u string) bool {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil || p.Host == "" {
		return false
	}
	return p.Scheme == "http" || p.Scheme == "https"
}

// addSources appends the search of a web_search result to the panel. A tool
// that reports its result again replaces its own entry.
func (s *Store) addSources(it *Item) {
	var w wire.SourceGroup
	if json.Unmarshal(it.Tool.Artifact, &w) != nil || w.Sources == nil {
		return
	}
	g := sourceGroupOf(w, s.opts.FaviconService)
	if i, ok := s.sourcesByTool[it.Tool.ID]; ok {
		s.sources[i] = g
	} else {
		s.sourcesByTool[it.Tool.ID] = len(s.sources)
		s.sources = append(s.sources, g)
	}
	s.changes.Sources = true
}

// setWorkspaceSources replaces the panel with a history's workspace.sources.
func (s *Store) setWorkspaceSources(groups []wire.SourceGroup) {
	s.sources = s.sources[:0]
	clear(s.sourcesByTool)
	for _, w := range groups {
		s.sources = append(s.sources, sourceGroupOf(w, s.opts.FaviconService))
	}
	s.changes.Sources = true
}
