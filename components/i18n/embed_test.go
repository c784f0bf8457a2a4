//go:build !(js && wasm)

package i18n

import (
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCatalogFiles: the JSON files are the languages beyond the built-in
// ones, no more.
func TestCatalogFiles(t *testing.T) {
	entries, err := fs.ReadDir(CatalogFiles(), ".")
	if err != nil {
		t.Fatal(err)
	}
	var files, want []string
	for _, e := range entries {
		files = append(files, strings.TrimSuffix(e.Name(), ".json"))
	}
	for _, lang := range Languages {
		if !Builtin(lang) {
			want = append(want, lang)
		}
	}
	slices.Sort(files)
	slices.Sort(want)
	if !slices.Equal(files, want) {
		t.Errorf("catalogs/ holds %v, want %v", files, want)
	}
}

// TestBrowserBuildEmbedsNoCatalog: app.wasm is built without the JSON
// catalogs (it fetches the one its page needs).
func TestBrowserBuildEmbedsNoCatalog(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.EmbedFiles}}", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "[]" {
		t.Errorf("the browser's build embeds %s", got)
	}
	cmd = exec.Command("go", "list", "-f", "{{.EmbedFiles}}", ".")
	if out, _ := cmd.CombinedOutput(); !strings.Contains(string(out), "catalogs/de.json") {
		t.Errorf("the server's build does not embed the catalogs: %s", out)
	}
}

func TestRegister(t *testing.T) {
	if err := Register("xx", []byte(`{"text":{"a":"b"}}`)); err == nil {
		t.Error("registered a language that is not one")
	}
	if err := Register("de", []byte(`{"text":`)); err == nil {
		t.Error("registered broken JSON")
	}
	if err := Register("de", []byte(`{"text":{}}`)); err == nil {
		t.Error("registered an empty catalog")
	}
	if got := Match("de").T("composer.send"); got == "Send" {
		t.Errorf("a failed Register replaced German: %q", got)
	}
}

// TestNotLoaded: a language whose catalog the page has not fetched yet
// speaks English, with English plurals.
func TestNotLoaded(t *testing.T) {
	mu.Lock()
	saved := catalogs["ru"]
	delete(catalogs, "ru")
	mu.Unlock()
	defer func() {
		mu.Lock()
		if saved != nil {
			catalogs["ru"] = saved
		}
		mu.Unlock()
	}()
	if Loaded("ru") {
		t.Fatal("ru still loaded")
	}
	l := Match("ru")
	if got := l.T("composer.send"); got != "Send" {
		t.Errorf("T = %q", got)
	}
	if got := l.N("search.results", 5); got != "5 results" {
		t.Errorf("N = %q", got)
	}
}

func TestDir(t *testing.T) {
	for lang, want := range map[string]string{"ar": "rtl", "he": "rtl", "en": "ltr", "": "ltr", "zh-TW": "ltr"} {
		if got := Match(lang).Dir(); got != want {
			t.Errorf("%q: dir %s, want %s", lang, got, want)
		}
	}
	for _, lang := range Languages {
		if Name(lang) == "" {
			t.Errorf("%s has no name", lang)
		}
	}
}

// TestBootScriptMatchesAsMatchDoes: web/boot.js, which hides a page
// prerendered in another language than the app will speak, knows the
// same languages and aliases.
func TestBootScriptMatchesAsMatchDoes(t *testing.T) {
	js, err := os.ReadFile("../../web/boot.js")
	if err != nil {
		t.Fatal(err)
	}
	src := string(js)
	list := regexp.MustCompile(`(?s)var languages = \[(.*?)\];`).FindStringSubmatch(src)
	table := regexp.MustCompile(`(?s)var aliases = \{(.*?)\};`).FindStringSubmatch(src)
	if list == nil || table == nil {
		t.Fatal("web/boot.js has no languages or aliases")
	}
	quoted := regexp.MustCompile(`"([^"]+)"`)
	var langs []string
	for _, m := range quoted.FindAllStringSubmatch(list[1], -1) {
		langs = append(langs, m[1])
	}
	if !slices.Equal(langs, Languages) {
		t.Errorf("boot.js languages %v, want %v", langs, Languages)
	}
	pairs := quoted.FindAllStringSubmatch(table[1], -1)
	got := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		got[pairs[i][1]] = pairs[i+1][1]
	}
	if !maps.Equal(got, aliases) {
		t.Errorf("boot.js aliases %v, want %v", got, aliases)
	}
}
