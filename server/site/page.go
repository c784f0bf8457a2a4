package site

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"stepwise/components/i18n"
)

// PageHeaderer is an API (Config.API) with something to add to each page's
// response header: the demo agent gives a browser its owner cookie with
// its first page.
type PageHeaderer interface {
	PageHeader(http.Header, *http.Request)
}

// servePage serves the page ("/") through next, whole, then mends it:
// its bare ARIA attributes get their value (ariaValues), and an API that
// is a PageHeaderer adds to its header, after the page's own fields
// (go-app sets Cache-Control).
func servePage(next http.Handler, api http.Handler) http.Handler {
	ph, _ := api.(PageHeaderer)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			next.ServeHTTP(w, r)
			return
		}
		status, body := serveWhole(next, w, r)
		h := w.Header()
		if status == http.StatusOK && strings.HasPrefix(h.Get("Content-Type"), "text/html") {
			body = withDirection(ariaValues(body))
			h.Set("Content-Length", strconv.Itoa(len(body)))
		}
		if ph != nil {
			ph.PageHeader(h, r)
		}
		w.WriteHeader(status)
		if r.Method != http.MethodHead {
			w.Write(body)
		}
	})
}

// htmlLang finds the page's <html lang="...">, as go-app writes it.
var htmlLang = regexp.MustCompile(`<html lang="([A-Za-z-]+)">`)

// withDirection gives the page's <html> the direction of its language
// (dir="rtl" for Arabic and Hebrew): go-app sets only its lang, and the
// page must lay out right to left before the app runs.
func withDirection(page []byte) []byte {
	m := htmlLang.FindSubmatchIndex(page)
	if m == nil {
		return page
	}
	dir := i18n.Match(string(page[m[2]:m[3]])).Dir()
	out := make([]byte, 0, len(page)+12)
	out = append(out, page[:m[3]+1]...)
	out = append(out, ` dir="`+dir+`"`...)
	return append(out, page[m[3]+1:]...)
}
