# Stepwise. `make run` builds and serves the app with the demo agent on
# http://localhost:8080 (ARGS="..." adds server flags, e.g. -backend URL
# -protocol ag-ui); `make test` runs every test.

GO       ?= go
ADDR     ?= localhost:8080
ARGS     ?=
SHARED   ?= ../shared
WASM_SRC := $(shell find wasm components app state -name '*.go' -not -name '*_test.go' 2>/dev/null) go.mod go.sum

.PHONY: build run test vet unit race conformance browser bench bench-stream bench-profile bench-tiering fuzz screens clean compress-wasm

build: web/app.wasm bin/stepwise

# The Go release building: bin/go.stamp is rewritten only when it changes,
# so that a new Go rebuilds the runtime overlay and the wasm (GOROOT's files
# keep their release's dates, which may be older than the last build).
GO_STAMP := bin/go.stamp
$(shell mkdir -p bin; v="$$($(GO) env GOROOT GOVERSION | tr '\n' ' ')"; [ "$$(cat $(GO_STAMP) 2>/dev/null)" = "$$v" ] || echo "$$v" > $(GO_STAMP))

# Client-only main, stripped: the server's code stays out of the wasm.
# It is built against go-app without its server side (see
# wasm/goapp-wasm.patch: net/http and crypto/tls stay out of the wasm).
WASM_BUILD := GOOS=js GOARCH=wasm $(GO) build -modfile bin/wasm/wasm.mod -overlay bin/wasmrt/overlay.json -trimpath
web/app.wasm: $(WASM_SRC) bin/wasm/wasm.mod bin/wasmrt/overlay.json $(GO_STAMP)
	$(WASM_BUILD) -ldflags='-s -w' -o $@ ./wasm
	@$(MAKE) --no-print-directory compress-wasm WASM=$@

# The wasm's module file: go.mod with go-app and goldmark replaced by
# patched copies of the very versions go.mod names (go.sum serves as is: a
# directory replacement has no checksum).
bin/wasm/wasm.mod: go.mod go.sum wasm/goapp-wasm.patch wasm/goldmark-wasm.patch
	rm -rf bin/wasm && mkdir -p bin/wasm
	cp -R "$$($(GO) list -m -f '{{.Dir}}' github.com/maxence-charriere/go-app/v10)" bin/wasm/go-app
	cp -R "$$($(GO) list -m -f '{{.Dir}}' github.com/yuin/goldmark)" bin/wasm/goldmark
	chmod -R u+w bin/wasm/go-app bin/wasm/goldmark
	patch --batch -s -p1 -F0 -d bin/wasm/go-app < wasm/goapp-wasm.patch
	patch --batch -s -p1 -F0 -d bin/wasm/goldmark < wasm/goldmark-wasm.patch
	cp go.sum bin/wasm/wasm.sum
	{ cat go.mod; echo; echo 'replace github.com/maxence-charriere/go-app/v10 => ./bin/wasm/go-app'; \
		echo 'replace github.com/yuin/goldmark => ./bin/wasm/goldmark'; } > $@

# Go's runtime with background GC marking sliced (wasm/goruntime-wasm.patch)
# and syscall/js releasing each callback's event at once
# (wasm/gosyscalljs-wasm.patch), as an overlay of GOROOT's files for the
# wasm build only. Each patch applies to fresh copies of its files, or is
# left out with a warning (another Go release) and the build goes on.
GOROOT_SRC     := $(shell $(GO) env GOROOT)/src
GOROOT_PATCHES := wasm/goruntime-wasm.patch wasm/gosyscalljs-wasm.patch
bin/wasmrt/overlay.json: $(GOROOT_PATCHES) $(GO_STAMP)
	rm -rf bin/wasmrt && mkdir -p bin/wasmrt
	echo 'module wasmrt // keeps the copies out of ./... (vet, test)' > bin/wasmrt/go.mod
	@sep=; printf '{"Replace":{' > $@; \
	for p in $(GOROOT_PATCHES); do \
		files=$$(sed -n 's|^--- a/||p' $$p); \
		(cd $(GOROOT_SRC) && cp --parents $$files $(CURDIR)/bin/wasmrt/) && \
		(cd bin/wasmrt && chmod u+w $$files) || exit 1; \
		if patch --batch -s -p1 -F0 -d bin/wasmrt < $$p; then \
			for f in $$files; do \
				printf '%s"%s":"%s"' "$$sep" $(GOROOT_SRC)/$$f $(CURDIR)/bin/wasmrt/$$f >> $@; sep=,; done; \
		else echo "warning: $$p does not apply to $$($(GO) env GOVERSION): building without it"; fi; \
	done; \
	echo '}}' >> $@

# The compressed copies the server sends. WASM.br.sha256 is the hash of the
# WASM the .br was made from: the server serves the .br only for that one
# (mtimes cannot tell: brotli -k truncates its copy's to the second).
WASM ?= web/app.wasm
compress-wasm:
	gzip -9 -k -f -n $(WASM)
	@if command -v brotli >/dev/null; then \
		brotli -q 11 -f -k $(WASM) -o $(WASM).br && sha256sum $(WASM) | cut -d' ' -f1 > $(WASM).br.sha256; \
	else echo "brotli not installed: serving gzip only"; rm -f $(WASM).br $(WASM).br.sha256; fi

bin/stepwise: $(shell find server state components app -name '*.go' -not -name '*_test.go') go.mod go.sum
	$(GO) build -trimpath -o $@ ./server

# The demo agent keeps its sessions in stepwise.db (-data).
run: build
	./bin/stepwise -addr $(ADDR) $(ARGS)

test: vet unit race conformance browser

vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm ./components/... ./app/... ./state/...

unit:
	$(GO) test -count=1 ./...

# The server's packages again under the race detector: the demo agent's
# runs, streams and data file writer are concurrent.
race:
	$(GO) test -race -count=1 ./server/...

# The shared conformance cases run through `replay` (they also run inside
# `go test` from server/replay/testdata).
conformance:
	@if [ -x $(SHARED)/conformance/check ]; then $(SHARED)/conformance/check $(SHARED)/conformance/cases; \
	else echo "no $(SHARED)/conformance: skipped (go test ran the copied cases)"; fi

# Browser tests: headless Chromium against the real server.
browser: build
	@if [ -d server/browsertest ]; then $(GO) test -count=1 -tags browser -timeout 20m ./server/browsertest/...; \
	else echo "no browser tests yet"; fi

# Go benchmarks of the store, then the in-browser stream benchmark,
# start-up times and app.wasm sizes (headless Chromium).
# Each stream is played in 3 rounds (ROUNDS=): the ratios are medians.
ROUNDS ?=
bench: build
	$(GO) test -run '^$$' -bench . -benchtime 2s ./state
	STEPWISE_BENCH=1 STEPWISE_BENCH_ROUNDS=$(or $(ROUNDS),3) $(GO) test -v -count=1 -tags browser -run '^TestBench$$' -timeout 90m ./server/browsertest/ | grep -v '^=== \|^--- \|^ok \|^PASS'
	@if [ -d $(SHARED)/bench ]; then grep -A6 '^| stream' $(SHARED)/bench/README.md | sed 's/^/reference: /'; fi

# The stream benchmark alone (5k and 20k at max rate on the floor, Stepwise
# and the React peer), to iterate on. RUNS="1k,5k,5k-3rd,20k,100k,1k@100,1k@100+2k"
# and PAGES="floor,stepwise,react" pick others; ROUNDS=3 plays each 3 times.
# JSFLAGS="--no-liftoff --no-wasm-lazy-compilation" gives Chromium V8 flags
# (there: every wasm function optimised before the page runs).
RUNS    ?=
PAGES   ?=
JSFLAGS ?=
bench-stream: build
	STEPWISE_BENCH=1 STEPWISE_BENCH_RUNS=$(RUNS) STEPWISE_BENCH_PAGES=$(PAGES) STEPWISE_BENCH_ROUNDS=$(ROUNDS) STEPWISE_JS_FLAGS='$(JSFLAGS)' $(GO) test -v -count=1 -tags browser -run '^TestBenchStream$$' -timeout 60m ./server/browsertest/ | grep -v '^=== \|^--- \|^ok \|^PASS'

# Chromium's profiler over Stepwise playing one stream (RUNS=5k by
# default), split by what the time went to. The wasm is built with its
# function names for it, then removed so the next build is the usual one.
bench-profile: bin/stepwise bin/wasm/wasm.mod bin/wasmrt/overlay.json
	$(WASM_BUILD) -o web/app.wasm ./wasm
	@$(MAKE) --no-print-directory compress-wasm WASM=web/app.wasm
	STEPWISE_BENCH=1 STEPWISE_BENCH_RUNS=$(RUNS) $(GO) test -v -count=1 -tags browser -run '^TestBenchProfile$$' -timeout 60m ./server/browsertest/ | grep -v '^=== \|^--- \|^ok \|^PASS'; \
		rm -f web/app.wasm web/app.wasm.gz web/app.wasm.br web/app.wasm.br.sha256

# What V8 compiles of the wasm while Stepwise plays one stream (RUNS=5k by
# default) in a fresh tab: the functions it optimises, largest first (a
# large one turns hot after few calls, and optimising it takes the core
# the page waits for), the optimised code it drops, and Go's allocations.
# The wasm keeps its names for it, as for bench-profile.
bench-tiering: bin/stepwise bin/wasm/wasm.mod bin/wasmrt/overlay.json
	$(WASM_BUILD) -o web/app.wasm ./wasm
	@$(MAKE) --no-print-directory compress-wasm WASM=web/app.wasm
	STEPWISE_BENCH=1 STEPWISE_BENCH_RUNS=$(RUNS) STEPWISE_JS_FLAGS='--trace-wasm-compilation-times --trace-deopt' STEPWISE_CHROMIUM_OUT=$(CURDIR)/bin/chromium.out $(GO) test -v -count=1 -tags browser -run '^TestBenchTiering$$' -timeout 60m ./server/browsertest/ | grep -v '^=== \|^--- \|^ok \|^PASS'; \
		rm -f web/app.wasm web/app.wasm.gz web/app.wasm.br web/app.wasm.br.sha256

# A short run of every fuzzer (go test runs their seed corpora anyway).
fuzz:
	for f in FuzzDecodeEvent FuzzDecodeHistory FuzzStoreJSONL FuzzStoreOps FuzzStoreReset FuzzDialectJSONL FuzzDialectOps FuzzIndentJSON; do \
		$(GO) test ./state -run '^$$' -fuzz "^$$f$$" -fuzztime 60s || exit 1; done
	for f in FuzzEventIDOrder FuzzDecodeEventFast FuzzFrameHead FuzzMediaType FuzzDecodeHistoryPaced; do \
		$(GO) test ./state/wire -run '^$$' -fuzz "^$$f$$" -fuzztime 60s || exit 1; done
	$(GO) test ./server/site -run '^$$' -fuzz '^FuzzARIAValues$$' -fuzztime 60s
	for f in FuzzStoredEvent FuzzCommands; do \
		$(GO) test ./server/demo -run '^$$' -fuzz "^$$f$$" -fuzztime 60s || exit 1; done
	$(GO) test ./components -run '^$$' -fuzz '^FuzzMarkdownDepth$$' -fuzztime 60s

# Screenshots of every state in both themes, to look at (testdata/screens).
screens: build
	STEPWISE_SCREENS=1 $(GO) test -count=1 -tags browser -run '^TestScreens$$' ./server/browsertest/

clean:
	rm -rf bin web/app.wasm web/app.wasm.gz web/app.wasm.br web/app.wasm.br.sha256
