package site

import (
	"io/fs"
	"net/http"
	"strings"

	"stepwise/components/i18n"
)

// catalogPath is where the app fetches a language's strings (the ones
// app.wasm does not hold: components/i18n), below the base path.
const catalogPath = "/web/i18n/"

// catalogURLs are the catalogs' paths, which the service worker caches
// with the app: the language menu works offline too.
func catalogURLs() []string {
	var urls []string
	for _, lang := range i18n.Languages {
		if !i18n.Builtin(lang) {
			urls = append(urls, catalogPath+lang+".json")
		}
	}
	return urls
}

// serveCatalog serves /web/i18n/LANG.json from the catalogs the server
// embeds.
func serveCatalog(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	data, err := fs.ReadFile(i18n.CatalogFiles(), name)
	if err != nil || !strings.HasSuffix(name, ".json") {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(data)
}
