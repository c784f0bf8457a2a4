package site

import "net/http"

// wasmPreload starts downloading app.wasm with the page's first bytes (a
// Link header, read before the HTML), instead of after app.js runs (after
// the document is parsed and both deferred scripts are in). It matches
// app.js's fetch (same URL, CORS mode, same-origin credentials), which
// takes over the response under way.
//
// It serves a first visit and a reload: on other visits the service
// worker drops it from the page it answers from its cache (workerPatches).
// There app.wasm comes from the worker's cache, and a fetch that takes
// over a preload gets no code cache: Chromium compiles the whole module
// again in every new tab (Liftoff, then TurboFan for what turns hot)
// instead of reading the code it kept beside the worker's copy from the
// last visit. Fetched by app.js itself, a new tab reads that code (a
// trace shows wasm.Deserialize and GetNativeModuleFromCache instead of
// lazy compilations), already optimised where the last visit was busy. A
// reload needs no code cache: V8 finds the module in the tab's process
// (GetNativeModuleFromCache alone), and the preload has the bytes read
// while the page is parsed, so the app is usable sooner. basePath is the
// site's (Config.BasePath).
func wasmPreload(basePath string) string {
	return `<` + basePath + `/web/app.wasm>; rel=preload; as=fetch; crossorigin=anonymous`
}

// preloadWasm sends wasmPreload with the page.
func preloadWasm(basePath string, next http.Handler) http.Handler {
	link := wasmPreload(basePath)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			w.Header().Add("Link", link)
		}
		next.ServeHTTP(w, r)
	})
}

// appJSPatches turn go-app's app.js into Stepwise's loader, for a site
// under basePath (Config.BasePath). Each must apply exactly once: when
// go-app changes its script, New fails and says so.
func appJSPatches(basePath string) []scriptPatch {
	return []scriptPatch{
		{
			// go-app fetches the wasm through a stream it builds for its
			// progress label. A Response made from a stream has no URL, so
			// Chromium cannot keep the compiled module in its code cache and
			// compiles the whole wasm on every visit. Fetched as is, it compiles
			// while it downloads (instantiateStreaming) and a repeat visit reuses
			// the compiled code. The app shows no progress label.
			why: "fetch app.wasm directly",
			old: `fetchWithProgress("` + basePath + `/web/app.wasm", showProgress)`,
			new: `fetch("` + basePath + `/web/app.wasm")`,
		},
		{
			// The service worker's install downloads every resource of the app,
			// app.wasm included: registered first, on a first visit it fetches
			// a second copy of the wasm alongside the page's, and the two share
			// the link. Registered once the app runs, it finds the wasm in the
			// HTTP cache (one revalidation).
			why: "register the service worker once the app runs",
			old: "goappInitServiceWorker();\ngoappWatchForUpdate();",
			new: "goappWatchForUpdate();",
		},
		{
			// The app takes over the prerendered page only once the page's own
			// deferred scripts have run: web/boot.js keeps what is typed there
			// until then, and must be listening before the app replaces it.
			why: "run the app after web/boot.js; register the service worker once it runs",
			old: "    go.run(wasm.instance);\n    loader.remove();\n",
			new: `    if (document.readyState === "loading") {
      await new Promise((ready) => document.addEventListener("DOMContentLoaded", ready, { once: true }));
    }
    go.run(wasm.instance);
    loader.remove();
    goappInitServiceWorker();
`,
		},
	}
}
