# Stepwise. `make run` builds and serves the app with the demo agent on
# http://localhost:8080 (ARGS="..." adds server flags, e.g. -backend URL
# -protocol ag-ui); `make test` runs every test.

GO       ?= go
ADDR     ?= localhost:8080
ARGS     ?=
SHARED   ?= ../shared
WASM_SRC := $(shell find wasm components app state -name '*.go' -not -name '*_test.go' 2>/dev/null)

.PHONY: build run test vet unit race conformance browser bench bench-stream bench-profile bench-tiering fuzz screens clean compress-wasm env FORCE

build: web/app.wasm bin/stepwise web/mermaid/mermaid.min.js

# Every go command below builds what ships: the modules go.mod pins, with
# the patches of wasm/patches.txt applied (go-app, goldmark), and Go's own
# runtime patched through an overlay (wasm/goruntime-wasm.patch). The
# patched copies are made by tools/patchmod (bin/mod, a prerequisite of
# each target that runs go), never by parsing this file; a patch that no
# longer applies stops the build. Plain go commands outside make build
# against the modules as downloaded: `eval "$$(make -s env)"` gives a shell
# these GOFLAGS (docs/patches.md).
MOD      := bin/mod
PATCHED  := $(MOD)/patches.sum
# They come after the developer's own GOFLAGS (the environment's or go
# env's, read with the installed Go), whose -modfile and -overlay they
# replace.
export GOFLAGS     := $(strip $(filter-out -modfile=% -overlay=%,$(shell GOTOOLCHAIN=local $(GO) env GOFLAGS 2>/dev/null)) \
	-modfile=$(CURDIR)/$(MOD)/go.mod -overlay=$(CURDIR)/$(MOD)/overlay.json)
# The Go release too is go.mod's toolchain line (go downloads it if the
# one installed differs); `make GOTOOLCHAIN=local` builds with the
# installed one, if the runtime patch applies to it.
export GOTOOLCHAIN := $(shell sed -n 's/^toolchain //p' go.mod)

# patchmod runs every time (FORCE) and rewrites $(PATCHED) only when a
# copy changed, so that what depends on it is rebuilt only then.
$(PATCHED): FORCE
	@GOFLAGS= $(GO) run ./tools/patchmod -patches wasm/patches.txt -out $(MOD)
FORCE:

# The shell lines that give plain go commands the Makefile's GOFLAGS.
env: $(PATCHED)
	@echo "export GOFLAGS='$(GOFLAGS)' GOTOOLCHAIN=$(GOTOOLCHAIN)"

# Mermaid draws the diagrams of answers (docs/renderers.md): the mermaid
# package from the npm registry, pinned and integrity-checked by
# tools/mermaid/package-lock.json, never a copy in the repository; only
# its bundle is copied into web/. Without npm (or offline) the build goes
# on and diagrams show as their source.
web/mermaid/mermaid.min.js: tools/mermaid/package-lock.json
	@if command -v npm >/dev/null 2>&1 && npm ci --prefix tools/mermaid --no-audit --no-fund --loglevel=error; then \
		cp tools/mermaid/node_modules/mermaid/dist/mermaid.min.js $@; \
	else echo "Mermaid not installed (no npm, or the registry did not answer): diagrams show as their source"; fi

# Client-only main, stripped: the server's code stays out of the wasm, and
# so do go-app's server side, encryption, states and routes by regular
# expression, and goldmark's API taking regular expressions (WASM_TAGS:
# net/http, crypto/tls, crypto/rand, crypto/aes, go-app's state manager
# and package regexp stay out of the wasm; wasm/goapp-wasm.patch,
# wasm/goldmark-wasm.patch).
WASM_TAGS  := goappomitserver,goappomitcrypto,goappomitstate,goappomitregexp,goldmarkomitregexp
# Packages app.wasm runs off a stream's path (start-up, errors, dates,
# URLs, JSON by reflection) are compiled without inlining: their code
# compresses better, and nothing a stream or a render runs waits on them (docs/performance.md, "Size";
# wasm/size_test.go keeps the list to packages of the wasm, none of them
# hot).
WASM_NOINLINE := time fmt net/url net/netip \
	encoding/base64 encoding/hex html internal/fmtsort os \
	syscall internal/poll io/fs internal/bisect internal/godebug errors \
	context sort runtime/debug path/filepath unique weak \
	github.com/maxence-charriere/go-app/v10/pkg/errors
WASM_BUILD := GOOS=js GOARCH=wasm $(GO) build -tags $(WASM_TAGS) -trimpath \
	$(foreach p,$(WASM_NOINLINE),-gcflags=$(p)=-l)
web/app.wasm: $(WASM_SRC) $(PATCHED)
	$(WASM_BUILD) -ldflags='-s -w' -o $@ ./wasm
	@$(MAKE) --no-print-directory compress-wasm WASM=$@

# The compressed copies the server sends. WASM.br.sha256 is the hash of the
# WASM the .br was made from: the server serves the .br only for that one
# (mtimes cannot tell: brotli -k truncates its copy's to the second).
WASM ?= web/app.wasm
compress-wasm:
	gzip -9 -k -f -n $(WASM)
	@if command -v brotli >/dev/null; then \
		brotli -q 11 -f -k $(WASM) -o $(WASM).br && sha256sum $(WASM) | cut -d' ' -f1 > $(WASM).br.sha256; \
	else echo "brotli not installed: serving gzip only"; rm -f $(WASM).br $(WASM).br.sha256; fi

bin/stepwise: $(shell find server state components app -name '*.go' -not -name '*_test.go') $(wildcard components/i18n/catalogs/*.json) $(PATCHED)
	$(GO) build -trimpath -o $@ ./server

# The demo agent keeps its sessions in stepwise.db (-data).
run: build
	./bin/stepwise -addr $(ADDR) $(ARGS)

test: vet unit race conformance browser

# GOOS=js vet goes without WASM_TAGS: tests such as app's use go-app's
# Handler, and the tag changes only go-app's files, not the ones vetted.
vet: $(PATCHED)
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm ./components/... ./app/... ./state/...

# The components' tests again as the browser build compiles them (its
# autolink matchers in place of expressions: components/linkify*.go).
unit: $(PATCHED)
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -tags goldmarkomitregexp ./components/

# The server's packages again under the race detector: the demo agent's
# runs, streams and data file writer are concurrent.
race: $(PATCHED)
	$(GO) test -race -count=1 ./server/...

# The shared conformance cases run through `replay` (they also run inside
# `go test` from server/replay/testdata).
conformance: $(PATCHED)
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
bench-profile: bin/stepwise $(PATCHED)
	$(WASM_BUILD) -o web/app.wasm ./wasm
	@$(MAKE) --no-print-directory compress-wasm WASM=web/app.wasm
	STEPWISE_BENCH=1 STEPWISE_BENCH_RUNS=$(RUNS) $(GO) test -v -count=1 -tags browser -run '^TestBenchProfile$$' -timeout 60m ./server/browsertest/ | grep -v '^=== \|^--- \|^ok \|^PASS'; \
		rm -f web/app.wasm web/app.wasm.gz web/app.wasm.br web/app.wasm.br.sha256

# What V8 compiles of the wasm while Stepwise plays one stream (RUNS=5k by
# default) in a fresh tab: the functions it optimises, largest first (a
# large one turns hot after few calls, and optimising it takes the core
# the page waits for), the optimised code it drops, and Go's allocations.
# The wasm keeps its names for it, as for bench-profile.
bench-tiering: bin/stepwise $(PATCHED)
	$(WASM_BUILD) -o web/app.wasm ./wasm
	@$(MAKE) --no-print-directory compress-wasm WASM=web/app.wasm
	STEPWISE_BENCH=1 STEPWISE_BENCH_RUNS=$(RUNS) STEPWISE_JS_FLAGS='--trace-wasm-compilation-times --trace-deopt' STEPWISE_CHROMIUM_OUT=$(CURDIR)/bin/chromium.out $(GO) test -v -count=1 -tags browser -run '^TestBenchTiering$$' -timeout 60m ./server/browsertest/ | grep -v '^=== \|^--- \|^ok \|^PASS'; \
		rm -f web/app.wasm web/app.wasm.gz web/app.wasm.br web/app.wasm.br.sha256

# A short run of every fuzzer (go test runs their seed corpora anyway).
fuzz: $(PATCHED)
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
	rm -rf bin tools/mermaid/node_modules web/mermaid/mermaid.min.js web/app.wasm web/app.wasm.gz web/app.wasm.br web/app.wasm.br.sha256
