package site

import (
	"errors"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// goappFetch is the fetch function of go-app's service worker: it answers
// from the cache only for the exact URL, query included.
const goappFetch = `async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);
  if (cachedResponse) {
    return cachedResponse;
  }
  return await fetch(request);
}`

// shellFetch serves every page navigation the cached app shell (pages differ
// only by their query: ?session=, ?lang=), so a session link opens offline
// and fast; the API always goes to the network.
const shellFetch = `async function fetchWithCache(request) {
  const url = new URL(request.url);
  if (url.origin === self.location.origin && url.pathname.startsWith("/api/")) {
    return fetch(request);
  }
  const options = request.mode === "navigate" ? { ignoreSearch: true } : undefined;
  const cachedResponse = await caches.match(request, options);
  if (cachedResponse) {
    return cachedResponse;
  }
  return await fetch(request);
}`

// serviceWorkerTemplate is go-app's worker with shellFetch in place of its
// fetch function.
func serviceWorkerTemplate() (string, error) {
	if !strings.Contains(app.DefaultAppWorkerJS, goappFetch) {
		return "", errors.New("go-app's service worker changed: update server/site/worker.go")
	}
	return strings.Replace(app.DefaultAppWorkerJS, goappFetch, shellFetch, 1), nil
}
