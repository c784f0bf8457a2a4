package site

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// workerPatches turn go-app's service worker into Stepwise's, for a site
// under basePath (Config.BasePath). Each must apply exactly once: when
// go-app changes its worker, New fails and says so.
func workerPatches(basePath string) []scriptPatch {
	return []scriptPatch{
		{
			// go-app's worker answers from the cache only for the exact URL,
			// query included. Every page navigation gets the cached app shell
			// instead (pages differ only by their query: ?session=, ?lang=), so
			// a session link opens offline and fast, without the first visit's
			// preload of app.wasm; the API always goes to the network.
			why: "serve the app shell to every navigation",
			old: `async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);
  if (cachedResponse) {
    return cachedResponse;
  }
  return await fetch(request);
}`,
			new: `async function fetchWithCache(request) {
  const url = new URL(request.url);
  if (url.origin === self.location.origin && url.pathname.startsWith("` + basePath + `/api/")) {
    return fetch(request);
  }
  const navigate = request.mode === "navigate";
  const cachedResponse = await caches.match(request, navigate ? { ignoreSearch: true } : undefined);
  if (cachedResponse && navigate && cachedResponse.headers.has("Link") && request.cache !== "no-cache") {
    // The page's preload of app.wasm is for a first visit and a reload
    // (a reload's navigation has cache mode no-cache): elsewhere the wasm
    // comes from this cache, and fetched without a preload Chromium
    // reads the code it compiled last time (server/site/loader.go).
    const headers = new Headers(cachedResponse.headers);
    headers.delete("Link");
    return new Response(cachedResponse.body, { status: cachedResponse.status, statusText: cachedResponse.statusText, headers });
  }
  if (cachedResponse) {
    return cachedResponse;
  }
  return await fetch(request);
}`,
		},
		{
			// go-app's install handler does not hold the install event until
			// the app is cached, so the worker could take control (and the old
			// version's cache be deleted) before the new cache was filled. Now
			// that the app registers the worker once it runs, that window is
			// where a person goes offline right after a first visit.
			why: "install only once the app is cached",
			old: `self.addEventListener("install", async (event) => {
  try {
    console.log("installing app worker {{.Version}}");
    await installWorker();
    await self.skipWaiting();
  } catch (error) {
    console.error("error during installation:", error);
  }
});`,
			new: `self.addEventListener("install", (event) => event.waitUntil((async () => {
  try {
    console.log("installing app worker {{.Version}}");
    await installWorker();
    await self.skipWaiting();
  } catch (error) {
    console.error("error during installation:", error);
  }
})()));`,
		},
	}
}

// serviceWorkerTemplate is go-app's worker with workerPatches applied.
func serviceWorkerTemplate(basePath string) (string, error) {
	js := app.DefaultAppWorkerJS
	for _, p := range workerPatches(basePath) {
		if n := strings.Count(js, p.old); n != 1 {
			return "", fmt.Errorf("go-app's service worker changed (%s: %d matches): update server/site/worker.go", p.why, n)
		}
		js = strings.Replace(js, p.old, p.new, 1)
	}
	return js, nil
}
