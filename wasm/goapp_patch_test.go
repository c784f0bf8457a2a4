// Host tests (see runtime_patch_test.go).
//go:build !js

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const goAppModule = "github.com/maxence-charriere/go-app/v10"

// TestGoAppPatch checks wasm/goapp-wasm.patch the way the Makefile uses
// it (tools/patchmod, on the release go.mod pins): go-app's own tests
// pass on the patched copy, natively; under Node (js/wasm) so do they and
// Stepwise's tests of the patch (testdata/goapp): the patched
// canUpdateValue answers as reflect.DeepEqual does, short strings given
// to JavaScript are converted once and shared, a growing text is given
// what it gained, and so on.
func TestGoAppPatch(t *testing.T) {
	needTools(t, "node")
	dir, _ := preparePatches(t, "goapp-wasm.patch").moduleCopy(t, goAppModule)

	native := exec.Command("go", "test", "-count=1", "./pkg/...")
	native.Dir = dir
	native.Env = withGoFlags("-mod=mod")
	if out, err := native.CombinedOutput(); err != nil {
		t.Fatalf("go-app's own tests fail with the patch: %v\n%s", err, out)
	}

	test, err := os.ReadFile(filepath.Join("testdata", "goapp", "node_stepwise_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pkg", "app", "node_stepwise_test.go"), test, 0o644); err != nil {
		t.Fatal(err)
	}
	run := exec.Command("go", "test", "-count=1", "-v",
		"-exec", filepath.Join(goEnv(t, "GOROOT"), "lib", "wasm", "go_js_wasm_exec"),
		"-run", "^("+strings.Join(patchTests, "|")+")$", "./pkg/app")
	run.Dir = dir
	run.Env = withGoFlags("-mod=mod", "GOOS=js", "GOARCH=wasm")
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("go-app patched, under Node: %v\n%s", err, out)
	}
	for _, name := range patchTests {
		if !strings.Contains(string(out), "--- PASS: "+name+" ") {
			t.Fatalf("%s did not run:\n%s", name, out)
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "allocations per") {
			t.Log(strings.TrimSpace(line))
		}
	}
}

// patchTests are the tests TestGoAppPatch runs in the patched go-app under
// Node: its own of the prop comparison, and Stepwise's in testdata/goapp.
var patchTests = []string{"TestCanUpdateValue", "TestCanUpdateValueAsDeepEqual", "TestFormatStringAsFmt", "TestCanUpdateValueWithoutDeepEqual", "TestUpdateComponentUnchangedWithoutAllocation", "TestBaseContextMadeOnce", "TestSyscallJSArgSharesShortStrings", "TestNodesTakeNoExtraReferences", "TestTextGrowsByAppending"}

// TestGoAppOmitServer checks the build tag of wasm/goapp-wasm.patch as the
// Makefile uses it: the browser main built with goappomitserver links
// neither net/http nor crypto/tls, which it does without the tag (they
// come from go-app's server side alone). Natively, without the tag, the
// patched go-app keeps its server side: TestGoAppPatch runs its tests of
// Handler, and the server builds with it.
func TestGoAppOmitServer(t *testing.T) {
	p := preparePatches(t, "goapp-wasm.patch")
	deps := func(tags string) []string {
		list := exec.Command("go", "list", "-deps", "-tags", tags, ".")
		list.Env = withGoFlags(p.goFlags(), "GOOS=js", "GOARCH=wasm")
		out, err := list.CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps -tags %q: %v\n%s", tags, err, out)
		}
		return strings.Fields(string(out))
	}
	stripped, full := deps("goappomitserver"), deps("")
	for _, pkg := range []string{"net/http", "crypto/tls"} {
		if slices.Contains(stripped, pkg) {
			t.Errorf("the wasm built with goappomitserver links %s", pkg)
		}
		if !slices.Contains(full, pkg) {
			t.Errorf("without goappomitserver the wasm does not link %s: the tag is no longer what keeps it out", pkg)
		}
	}
}

// TestGoAppOmitCrypto checks the goappomitcrypto tag of
// wasm/goapp-wasm.patch with the Makefile's WASM_TAGS: the browser main
// links neither crypto/rand (whose FIPS 140 DRBG keeps AES, GCM, SHA-2 and
// SHA-3), crypto/aes nor google/uuid, which go-app without the tag does.
// Stepwise's own packages importing crypto/rand again fail it too. In the
// patched copy, under the tag, go-app's ids are still version 4 UUIDs
// and encryption fails with an error (the patch's crypto_omit_test.go);
// without it go-app's own tests of encryption pass (TestGoAppPatch).
func TestGoAppOmitCrypto(t *testing.T) {
	p := preparePatches(t, "goapp-wasm.patch")
	tags := makefileWasmTags(t)
	if !slices.Contains(strings.Split(tags, ","), "goappomitcrypto") {
		t.Fatalf("the Makefile's WASM_TAGS (%s) leave out goappomitcrypto", tags)
	}
	deps := func(tags string) []string {
		list := exec.Command("go", "list", "-deps", "-tags", tags, ".")
		list.Env = withGoFlags(p.goFlags(), "GOOS=js", "GOARCH=wasm")
		out, err := list.CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps -tags %q: %v\n%s", tags, err, out)
		}
		return strings.Fields(string(out))
	}
	shipped, withCrypto := deps(tags), deps("goappomitserver")
	for _, pkg := range []string{"crypto/rand", "crypto/aes", "crypto/cipher", "github.com/google/uuid"} {
		if slices.Contains(shipped, pkg) {
			t.Errorf("the wasm built with -tags %s links %s", tags, pkg)
		}
		if !slices.Contains(withCrypto, pkg) {
			t.Errorf("without goappomitcrypto the wasm does not link %s: the tag is no longer what keeps it out", pkg)
		}
	}

	dir, _ := p.moduleCopy(t, goAppModule)
	run := exec.Command("go", "test", "-count=1", "-v", "-tags", "goappomitcrypto",
		"-run", "^(TestNewIDIsUUIDv4|TestEncryptOmitted|TestContextDeviceID)$", "./pkg/app")
	run.Dir = dir
	run.Env = withGoFlags("-mod=mod")
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("go-app patched, with goappomitcrypto: %v\n%s", err, out)
	}
	for _, name := range []string{"TestNewIDIsUUIDv4", "TestEncryptOmitted", "TestContextDeviceID"} {
		if !strings.Contains(string(out), "--- PASS: "+name+" ") {
			t.Fatalf("%s did not run:\n%s", name, out)
		}
	}
}

// makefileWasmTags returns the Makefile's WASM_TAGS: the tags app.wasm is
// built with.
func makefileWasmTags(t *testing.T) string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(text), "\n") {
		if name, value, ok := strings.Cut(line, ":="); ok && strings.TrimSpace(name) == "WASM_TAGS" {
			return strings.TrimSpace(value)
		}
	}
	t.Fatal("the Makefile sets no WASM_TAGS")
	return ""
}
