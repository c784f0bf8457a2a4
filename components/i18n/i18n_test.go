package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"stepwise/state"
)

// counts covers every branch of the plural rules.
var counts = []int{0, 1, 2, 3, 5, 11, 21, 100, 101, 1_000_000, 1_000_001, 2_000_000}

func allKeys() (text, plural map[string]bool) {
	text, plural = map[string]bool{}, map[string]bool{}
	for _, c := range catalogs {
		for k := range c.text {
			text[k] = true
		}
		for k := range c.plurals {
			plural[k] = true
		}
	}
	return text, plural
}

func TestEveryLanguageHasEveryKey(t *testing.T) {
	text, plural := allKeys()
	for _, lang := range Languages {
		c := catalogs[lang]
		for k := range text {
			if _, ok := c.text[k]; !ok {
				t.Errorf("%s: missing %q", lang, k)
			}
		}
		for k := range plural {
			if _, ok := c.plurals[k]; !ok {
				t.Errorf("%s: missing plural %q", lang, k)
			}
		}
		for k := range c.text {
			if c.text[k] == "" {
				t.Errorf("%s: %q is empty", lang, k)
			}
			if plural[k] {
				t.Errorf("%s: %q is both a string and a plural", lang, k)
			}
		}
	}
	if len(catalogs) != len(Languages) {
		t.Errorf("%d catalogs for %d languages", len(catalogs), len(Languages))
	}
}

// TestPluralForms checks that each language fills exactly the categories
// its rule returns, and the CLDR rule itself on a few counts.
func TestPluralForms(t *testing.T) {
	for _, lang := range Languages {
		c := catalogs[lang]
		used := map[Category]bool{}
		for _, n := range counts {
			used[c.plural(n)] = true
		}
		for k, f := range c.plurals {
			for _, cat := range []Category{One, Many, Other} {
				if used[cat] && f.get(cat) == "" {
					t.Errorf("%s: plural %q lacks its %s form", lang, k, cat)
				}
				if !used[cat] && f.get(cat) != "" {
					t.Errorf("%s: plural %q has a %s form the language never uses", lang, k, cat)
				}
			}
		}
	}
	for _, tc := range []struct {
		lang string
		n    int
		want string
	}{
		{"en", 0, "0 results"},
		{"en", 1, "1 result"},
		{"en", 2, "2 results"},
		{"fr", 0, "0 résultat"},
		{"fr", 1, "1 résultat"},
		{"fr", 2, "2 résultats"},
		{"fr", 1_000_000, "1000000 de résultats"},
		{"vi", 1, "1 kết quả"},
		{"vi", 7, "7 kết quả"},
	} {
		if got := Match(tc.lang).N("search.results", tc.n); got != tc.want {
			t.Errorf("%s N(search.results, %d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}

var verbRE = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)

func verbs(s string) string { return strings.Join(verbRE.FindAllString(s, -1), " ") }

// TestFormatVerbsMatch checks that every translation of a key, and every
// plural form, takes the same arguments as the default language's.
func TestFormatVerbsMatch(t *testing.T) {
	ref := catalogs[Default]
	for _, lang := range Languages {
		c := catalogs[lang]
		for k, s := range c.text {
			if got, want := verbs(s), verbs(ref.text[k]); got != want {
				t.Errorf("%s %q: verbs %q, %s has %q", lang, k, got, Default, want)
			}
		}
		for k, f := range c.plurals {
			want := verbs(ref.plurals[k].Other)
			if !strings.HasPrefix(want, "%d") {
				t.Errorf("%s plural %q: its first verb must be %%d (the count), got %q", Default, k, want)
			}
			for _, s := range []string{f.One, f.Many, f.Other} {
				if s != "" && verbs(s) != want {
					t.Errorf("%s plural %q form %q: verbs %q, want %q", lang, k, s, verbs(s), want)
				}
			}
		}
	}
}

// uses collects, from the client's Go code (app/, components/, wasm/;
// tests and this package excluded), every string literal, and the first
// argument of each call to a method or function named T or N.
func uses(t *testing.T) (literals map[string]bool, tCalls, nCalls []string) {
	t.Helper()
	literals = map[string]bool{}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	for _, dir := range []string{"app", "components", "wasm"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "i18n" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BasicLit:
					if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING {
						literals[s] = true
					}
				case *ast.CallExpr:
					var name string
					switch fn := n.Fun.(type) {
					case *ast.Ident:
						name = fn.Name
					case *ast.SelectorExpr:
						name = fn.Sel.Name
					}
					if (name == "T" || name == "N") && len(n.Args) > 0 {
						if lit, ok := n.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							s, _ := strconv.Unquote(lit.Value)
							if name == "T" {
								tCalls = append(tCalls, s)
							} else {
								nCalls = append(nCalls, s)
							}
						}
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(tCalls) == 0 {
		t.Fatal("found no call to T: is the source walk broken?")
	}
	return literals, tCalls, nCalls
}

// TestNoDeadKeys: every key is written somewhere in the client's code as
// a literal (keys chosen at run time come from tables of literals).
func TestNoDeadKeys(t *testing.T) {
	literals, _, _ := uses(t)
	for _, code := range state.ToolErrorCodes() {
		literals["tool.error."+code] = true // components' toolErrorKey
	}
	text, plural := allKeys()
	for k := range text {
		if !literals[k] {
			t.Errorf("dead key %q: no code uses it", k)
		}
	}
	for k := range plural {
		if !literals[k] {
			t.Errorf("dead plural %q: no code uses it", k)
		}
	}
}

// TestToolErrorCodesHaveSentences: every error code state knows has its
// sentence in every language (components' toolErrorKey).
func TestToolErrorCodesHaveSentences(t *testing.T) {
	require := func(key string) {
		for _, lang := range Languages {
			if _, ok := catalogs[lang].text[key]; !ok {
				t.Errorf("%s: no sentence for %q", lang, key)
			}
		}
	}
	for _, code := range state.ToolErrorCodes() {
		if code == state.UnknownErrorCode {
			require("tool.error.failed")
			continue
		}
		require("tool.error." + code)
	}
}

// TestCalledKeysExist: every literal key passed to T is a string and every
// one passed to N is a plural.
func TestCalledKeysExist(t *testing.T) {
	_, tCalls, nCalls := uses(t)
	text, plural := allKeys()
	for _, k := range tCalls {
		if !text[k] {
			t.Errorf("T(%q): no such string", k)
		}
	}
	for _, k := range nCalls {
		if !plural[k] {
			t.Errorf("N(%q): no such plural", k)
		}
	}
}

func TestMatch(t *testing.T) {
	for tag, want := range map[string]string{
		"": "vi", "en": "en", "EN": "en", "fr-CA": "fr", "en-US": "en", "de": "vi", " fr ": "fr", "vi-VN": "vi",
	} {
		if got := Match(tag).Lang(); got != want {
			t.Errorf("Match(%q) = %q, want %q", tag, got, want)
		}
	}
	if (Locale{}).Lang() != Default {
		t.Error("the zero Locale is not the default language")
	}
	if !slices.Contains(Languages, Default) {
		t.Error("Default is not a language")
	}
}

func TestFallbacks(t *testing.T) {
	if got := Match("fr").T("no.such.key"); got != "no.such.key" {
		t.Errorf("unknown key = %q", got)
	}
	if got := Match("en").T("send.failed", "boom"); got != "Could not send: boom" {
		t.Errorf("T with args = %q", got)
	}
}
