package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const original = "package a\n\nfunc A() int {\n\treturn 1\n}\n\nfunc B() int {\n\treturn 2\n}\n"

func TestApplyAtOffsetExactly(t *testing.T) {
	// The second hunk's header is a line off (it applies one line down,
	// as patch -F0 would), and its first line is an empty context line
	// whose leading space was lost.
	patch := "explanation, ignored\n" +
		"--- a/a.go\n+++ b/a.go\n" +
		"@@ -3,3 +3,3 @@\n func A() int {\n-\treturn 1\n+\treturn 10\n }\n" +
		"@@ -5,3 +5,3 @@\n\n func B() int {\n-\treturn 2\n+\treturn 20\n"
	files, err := parseDiff(patch)
	if err != nil || len(files) != 1 || len(files[0].hunks) != 2 {
		t.Fatalf("parseDiff = %+v, %v", files, err)
	}
	want := strings.NewReplacer("return 1\n", "return 10\n", "return 2\n", "return 20\n").Replace(original)
	if got, err := files[0].apply(original); err != nil || got != want {
		t.Fatalf("apply = %q, %v; want %q", got, err, want)
	}
	// The same lines further down.
	if got, err := files[0].apply("// moved\n// down\n" + original); err != nil || got != "// moved\n// down\n"+want {
		t.Fatalf("apply at an offset = %q, %v", got, err)
	}
}

func TestApplyRefusesWhatDoesNotMatch(t *testing.T) {
	files, err := parseDiff("--- a/a.go\n+++ b/a.go\n@@ -1,1 +1,1 @@\n-package a\n+package b\n@@ -3,3 +3,3 @@\n func A() int {\n-\treturn 3\n+\treturn 30\n }\n")
	if err != nil {
		t.Fatal(err)
	}
	_, err = files[0].apply(original)
	var h *hunkError
	if !errors.As(err, &h) || h.n != 2 || !strings.Contains(err.Error(), "hunk 2 (@@ -3,3 +3,3 @@)") {
		t.Fatalf("apply = %v; want hunk 2 refused", err)
	}
	// Nor a hunk whose lines differ only in white space.
	files, _ = parseDiff("--- a/a.go\n+++ b/a.go\n@@ -1,1 +1,1 @@\n-package  a\n+package b\n")
	if _, err := files[0].apply(original); err == nil {
		t.Fatal("a hunk applied with other white space")
	}
}

func TestApplyNewFileAndNoNewlineAtEnd(t *testing.T) {
	files, err := parseDiff("--- /dev/null\n+++ b/n.go\n@@ -0,0 +1,2 @@\n+package n\n+// end\n\\ No newline at end of file\n--- a/a.go\n+++ b/a.go\n@@ -9,2 +9,2 @@\n \treturn 2\n-}\n+} // B\n\\ No newline at end of file\n")
	if err != nil || len(files) != 2 || !files[0].create {
		t.Fatalf("parseDiff = %+v, %v", files, err)
	}
	if got, err := files[0].apply(""); err != nil || got != "package n\n// end" {
		t.Fatalf("new file = %q, %v", got, err)
	}
	if got, err := files[1].apply(original); err != nil || !strings.HasSuffix(got, "return 2\n} // B") {
		t.Fatalf("apply = %q, %v", got, err)
	}
}

// fixture is a module and a GOROOT to patch, and a preparation of them.
type fixture struct {
	t    *testing.T
	dir  string
	prep preparation
	logs []string
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, dir: t.TempDir()}
	root, mod, goroot := filepath.Join(f.dir, "main"), filepath.Join(f.dir, "cache", "example.com", "m@v1.2.3"), filepath.Join(f.dir, "goroot")
	f.write(filepath.Join(root, "go.mod"), "module main\n\ngo 1.26\n\ntoolchain go1.26.8\n\nrequire example.com/m v1.2.3\n")
	f.write(filepath.Join(root, "go.sum"), "example.com/m v1.2.3 h1:x=\n")
	f.write(filepath.Join(mod, "go.mod"), "module example.com/m\n")
	f.write(filepath.Join(mod, "a.go"), original)
	f.write(filepath.Join(goroot, "src", "runtime", "r.go"), original)
	f.write(filepath.Join(f.dir, "m.patch"), "--- a/a.go\n+++ b/a.go\n@@ -3,3 +3,3 @@\n func A() int {\n-\treturn 1\n+\treturn 10\n }\n")
	f.write(filepath.Join(f.dir, "rt.patch"), "--- a/runtime/r.go\n+++ b/runtime/r.go\n@@ -7,3 +7,3 @@\n func B() int {\n-\treturn 2\n+\treturn 20\n }\n--- /dev/null\n+++ b/runtime/other.go\n@@ -0,0 +1 @@\n+package runtime\n")
	f.prep = preparation{
		root: root, out: filepath.Join(root, "bin", "mod"),
		goroot: goroot, goVersion: "go1.26.8", toolchain: "go1.26.8",
		modules:       []moduleSource{{Path: "example.com/m", Version: "v1.2.3", Dir: mod, Sum: "h1:x=", patch: f.patch("m.patch", "example.com/m")}},
		gorootPatches: []patchFile{f.patch("rt.patch", "GOROOT")},
		log:           func(s string) { f.logs = append(f.logs, s) },
	}
	return f
}

func (f *fixture) write(path, text string) {
	f.t.Helper()
	if err := writeFile(path, []byte(text)); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) read(path string) string {
	f.t.Helper()
	text, err := os.ReadFile(filepath.Join(f.prep.out, path))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(text)
}

func (f *fixture) patch(name, target string) patchFile {
	f.t.Helper()
	text, err := os.ReadFile(filepath.Join(f.dir, name))
	if err != nil {
		f.t.Fatal(err)
	}
	return patchFile{target: target, path: name, name: "wasm/" + name, text: text}
}

func (f *fixture) prepare() {
	f.t.Helper()
	f.logs = nil
	if err := f.prep.prepare(); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) mtime(path string) time.Time {
	f.t.Helper()
	st, err := os.Stat(filepath.Join(f.prep.out, path))
	if err != nil {
		f.t.Fatal(err)
	}
	return st.ModTime()
}

func TestPrepareWritesModFileOverlayAndCopies(t *testing.T) {
	f := newFixture(t)
	f.prepare()
	if got := f.read("example.com/m@v1.2.3/a.go"); !strings.Contains(got, "return 10\n") {
		t.Errorf("the module's copy is not patched:\n%s", got)
	}
	if got := f.read("go.mod"); !strings.HasSuffix(got, "replace example.com/m => ./bin/mod/example.com/m@v1.2.3\n") || !strings.Contains(got, "toolchain go1.26.8\n") {
		t.Errorf("go.mod:\n%s", got)
	}
	if got := f.read("go.sum"); got != "example.com/m v1.2.3 h1:x=\n" {
		t.Errorf("go.sum = %q", got)
	}
	var overlay struct{ Replace map[string]string }
	if err := json.Unmarshal([]byte(f.read("overlay.json")), &overlay); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(f.prep.goroot, "src", "runtime")
	for _, name := range []string{"r.go", "other.go"} {
		copyPath := overlay.Replace[filepath.Join(src, name)]
		if !filepath.IsAbs(copyPath) {
			t.Fatalf("overlay of %s: %q, want an absolute path (go commands run in many directories)", name, copyPath)
		}
		text, err := os.ReadFile(copyPath)
		if err != nil {
			t.Fatal(err)
		}
		if name == "r.go" && !strings.Contains(string(text), "return 20\n") || name == "other.go" && string(text) != "package runtime\n" {
			t.Errorf("overlay's %s:\n%s", name, text)
		}
	}
	if len(overlay.Replace) != 2 {
		t.Errorf("overlay replaces %d files, want 2: %v", len(overlay.Replace), overlay.Replace)
	}
	// GOROOT's own file is untouched.
	if text, _ := os.ReadFile(filepath.Join(src, "r.go")); string(text) != original {
		t.Errorf("GOROOT's file changed")
	}
}

func TestPrepareIsIdempotentByContent(t *testing.T) {
	f := newFixture(t)
	f.prepare()
	sums := f.read("patches.sum")
	outputs := []string{"patches.sum", "go.mod", "go.sum", "overlay.json", "example.com/m@v1.2.3/a.go", "goroot/src/runtime/r.go"}
	before := map[string]time.Time{}
	for _, p := range outputs {
		before[p] = f.mtime(p)
	}
	time.Sleep(10 * time.Millisecond) // mtimes that could change, would
	f.prepare()
	if len(f.logs) != 0 {
		t.Errorf("a second run made %q", f.logs)
	}
	for _, p := range outputs {
		if !f.mtime(p).Equal(before[p]) {
			t.Errorf("a second run rewrote %s", p)
		}
	}

	// A copy changed by hand is made again, though its inputs did not change.
	f.write(filepath.Join(f.prep.out, "example.com/m@v1.2.3/a.go"), "package a // edited\n")
	f.prepare()
	if got := f.read("example.com/m@v1.2.3/a.go"); !strings.Contains(got, "return 10\n") || len(f.logs) != 1 {
		t.Errorf("a hand-edited copy: %q, made %q", got, f.logs)
	}
	if f.read("patches.sum") != sums {
		t.Errorf("patches.sum changed, though the copy is made from the same inputs again")
	}

	// A new patch remakes its copy and changes patches.sum (the Makefile's
	// prerequisite), whatever the files' dates say.
	f.prep.modules[0].patch.text = []byte(strings.ReplaceAll(string(f.prep.modules[0].patch.text), "return 10", "return 11"))
	f.prepare()
	if got := f.read("example.com/m@v1.2.3/a.go"); !strings.Contains(got, "return 11\n") {
		t.Errorf("a changed patch did not remake the copy:\n%s", got)
	}
	if f.read("patches.sum") == sums {
		t.Errorf("patches.sum did not change with the patch")
	}
	// So does another Go release.
	sums = f.read("patches.sum")
	f.prep.goVersion = "go1.26.9"
	f.prepare()
	if f.read("patches.sum") == sums || len(f.logs) != 1 || !strings.Contains(f.logs[0], "go1.26.9") {
		t.Errorf("another Go release: made %q", f.logs)
	}
}

func TestPrepareFailsNamingPatchAndVersion(t *testing.T) {
	f := newFixture(t)
	f.prepare()
	// The module's next release changed the lines the patch touches.
	f.write(filepath.Join(f.prep.modules[0].Dir, "a.go"), strings.Replace(original, "return 1\n", "return one()\n", 1))
	f.prep.modules[0].Version, f.prep.modules[0].Sum = "v1.3.0", "h1:y="
	err := f.prep.prepare()
	if err == nil {
		t.Fatal("a patch that does not apply: no error")
	}
	for _, want := range []string{"wasm/m.patch does not apply to example.com/m v1.3.0", "a.go", "hunk 1 (@@ -3,3 +3,3 @@)", "redo it"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	// Nothing half made: the module file still names the copy that was.
	if got := f.read("go.mod"); !strings.Contains(got, "example.com/m@v1.2.3") {
		t.Errorf("go.mod after the failure:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(f.prep.out, "example.com/m@v1.3.0")); err == nil {
		t.Errorf("a copy of v1.3.0 was left")
	}

	// Another Go release whose runtime changed: the message says which,
	// and which one the patch is made for.
	f = newFixture(t)
	f.write(filepath.Join(f.prep.goroot, "src", "runtime", "r.go"), strings.Replace(original, "return 2\n", "return two()\n", 1))
	f.prep.goVersion = "go1.27.0"
	err = f.prep.prepare()
	if err == nil {
		t.Fatal("a runtime patch that does not apply: no error")
	}
	for _, want := range []string{"wasm/rt.patch does not apply to go1.27.0's standard library", "runtime/r.go", "hunk 1", "go1.26.8"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestReadPatches(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"p.txt": "# comment\nexample.com/m  m.patch # why\n\nGOROOT " + filepath.Join(dir, "abs.patch") + "\n", "m.patch": "m", "abs.patch": "abs"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	patches, err := readPatches(filepath.Join(dir, "p.txt"))
	if err != nil || len(patches) != 2 {
		t.Fatalf("readPatches = %+v, %v", patches, err)
	}
	if p := patches[0]; p.target != "example.com/m" || string(p.text) != "m" || p.path != filepath.Join(dir, "m.patch") {
		t.Errorf("first = %+v", p)
	}
	if p := patches[1]; p.target != "GOROOT" || string(p.text) != "abs" {
		t.Errorf("second = %+v", p)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.txt"), []byte("example.com/m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readPatches(filepath.Join(dir, "bad.txt")); err == nil || !strings.Contains(err.Error(), "bad.txt:1") {
		t.Errorf("a line without a patch: %v", err)
	}
}
