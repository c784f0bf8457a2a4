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
	// PageAge is shown beside the domain when the search sent it.
	PageAge string `json:"page_age,omitempty"`
}

// SourceGroup is one search in the sources panel.
type SourceGroup struct {
	Query   string   `json:"query"`
	Sources []Source `json:"sources"`
	// Kind is "" for a search; the groups the store makes itself are
	// SourcesFetched and SourcesCited, whose Query is English and which the
	// UI names in its own language.
	Kind string `json:"-"`
}

// The kinds of source groups the store makes (BACKENDS.md section 1).
const (
	SourcesFetched = "fetched" // pages a web_fetch tool read: query "Fetched pages"
	SourcesCited   = "cited"   // cited URLs no search found: query "Cited"
)

// The queries of the groups the store makes, as the view model shows them.
const (
	FetchedQuery = "Fetched pages"
	CitedQuery   = "Cited"
)

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
		src := Source{URL: ws.URL, Title: ws.Title, Snippet: ws.Snippet, Domain: ws.Domain, PageAge: ws.PageAge}
		fillSource(&src, ws.Favicon, faviconService)
		g.Sources = append(g.Sources, src)
	}
	return g
}

// fillSource completes a source as PROTOCOL.md section 7 says: the domain
// defaults to the URL's host, and a favicon that is not a web URL falls back
// to faviconService.
func fillSource(src *Source, favicon *string, faviconService string) {
	if src.Domain == "" {
		if u, err := url.Parse(src.URL); err == nil {
			src.Domain = u.Hostname()
		}
	}
	if favicon != nil && IsWebURL(*favicon) {
		src.Favicon = *favicon
	} else if faviconService != "" && src.Domain != "" {
		src.Favicon = strings.ReplaceAll(faviconService, "{domain}", url.QueryEscape(src.Domain))
	}
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
	for _, src := range g.Sources {
		if _, known := s.foundBy[src.URL]; !known {
			s.foundBy[src.URL] = g.Query
		}
	}
	if i, ok := s.sourcesByTool[it.Tool.ID]; ok {
		s.sources[i] = g
	} else {
		s.sourcesByTool[it.Tool.ID] = len(s.sources)
		s.sources = append(s.sources, g)
	}
	s.sourcesChanged()
}

// setWorkspaceSources replaces the panel with a history's workspace.sources.
// Cited URLs the workspace does not list are added again (BACKENDS.md
// section 1: a cited URL joins the panel when it is not in it).
func (s *Store) setWorkspaceSources(groups []wire.SourceGroup) {
	s.sources = s.sources[:0]
	clear(s.sourcesByTool)
	for _, w := range groups {
		s.sources = append(s.sources, sourceGroupOf(w, s.opts.FaviconService))
	}
	s.sourcesChanged()
	for _, c := range s.citedSources {
		s.addCitedSource(c)
	}
}

// sourcesChanged records a change of the panel: SourcesRev moves, and the
// set of URLs it shows is rebuilt on next use.
func (s *Store) sourcesChanged() {
	s.changes.Sources = true
	s.sourcesRev++
	s.panelURLs = nil
}

// SourcesRev changes whenever the sources panel does, also when a group
// gains a source in place: a renderer compares it instead of the groups.
func (s *Store) SourcesRev() uint64 { return s.sourcesRev }

// inPanel reports whether the panel lists url.
func (s *Store) inPanel(url string) bool {
	if s.panelURLs == nil {
		s.panelURLs = make(map[string]bool)
		for _, g := range s.sources {
			for _, src := range g.Sources {
				s.panelURLs[src.URL] = true
			}
		}
	}
	return s.panelURLs[url]
}

// groupOf returns the index of the panel's group of that kind (and, for a
// search, that query), or -1.
func (s *Store) groupOf(kind, query string) int {
	for i := range s.sources {
		if g := &s.sources[i]; g.Kind == kind && (kind != "" || g.Query == query) {
			return i
		}
	}
	return -1
}

// appendSource adds src to the group of that kind and query, making the
// group at the end of the panel when there is none.
func (s *Store) appendSource(kind, query string, src Source) {
	if i := s.groupOf(kind, query); i >= 0 {
		g := &s.sources[i]
		g.Sources = append(g.Sources, src)
	} else {
		s.sources = append(s.sources, SourceGroup{Query: query, Sources: []Source{src}, Kind: kind})
	}
	s.sourcesChanged()
}

// addFetchedPage lists a page a web_fetch tool read under "Fetched pages",
// once.
func (s *Store) addFetchedPage(pageURL, title string) {
	if pageURL == "" {
		return
	}
	if i := s.groupOf(SourcesFetched, ""); i >= 0 {
		for _, src := range s.sources[i].Sources {
			if src.URL == pageURL {
				return
			}
		}
	}
	src := Source{URL: pageURL, Title: title}
	fillSource(&src, nil, s.opts.FaviconService)
	s.appendSource(SourcesFetched, FetchedQuery, src)
}

// addCitedSource adds a cited page the panel does not list yet: under the
// query of the search that found it, else under "Cited". Only web URLs are
// listed.
func (s *Store) addCitedSource(src Source) {
	if !IsWebURL(src.URL) || s.inPanel(src.URL) {
		return
	}
	fillSource(&src, nil, s.opts.FaviconService)
	if q, ok := s.foundBy[src.URL]; ok {
		s.appendSource("", q, src)
		return
	}
	s.appendSource(SourcesCited, CitedQuery, src)
}
