package i18n

import (
	"fmt"
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
		if c == nil {
			t.Errorf("%s: no catalog", lang)
			continue
		}
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
		c, rule := catalogs[lang], pluralRule(lang)
		used := map[Category]bool{}
		for _, n := range counts {
			used[rule(n)] = true
		}
		for k, f := range c.plurals {
			for _, cat := range Categories {
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
		{"ru", 1, "1 результат"},
		{"ru", 3, "3 результата"},
		{"ru", 11, "11 результатов"},
		{"ru", 21, "21 результат"},
		{"ar", 0, "لا توجد نتائج"},
		{"ar", 2, "نتيجتان"},
		{"ar", 5, "5 نتائج"},
		{"ar", 11, "11 نتيجة"},
	} {
		if got := Match(tc.lang).N("search.results", tc.n); got != tc.want {
			t.Errorf("%s N(search.results, %d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}

// TestPluralRules checks each rule on CLDR's examples for whole numbers.
func TestPluralRules(t *testing.T) {
	for lang, want := range map[string]map[Category][]int{
		"en":      {One: {1}, Other: {0, 2, 11, 21, 100, 1_000_000}},
		"de":      {One: {1}, Other: {0, 2, 21}},
		"fr":      {One: {0, 1}, Many: {1_000_000, 2_000_000}, Other: {2, 21, 1_000_001}},
		"pt-BR":   {One: {0, 1}, Many: {1_000_000}, Other: {2, 101}},
		"es":      {One: {1}, Many: {1_000_000}, Other: {0, 2, 21}},
		"it":      {One: {1}, Many: {3_000_000}, Other: {0, 2, 1_000_001}},
		"hi":      {One: {0, 1}, Other: {2, 21}},
		"ru":      {One: {1, 21, 101, 1001}, Few: {2, 3, 4, 22, 24, 102}, Many: {0, 5, 11, 12, 14, 19, 20, 100, 111, 112}},
		"uk":      {One: {1, 31}, Few: {2, 33}, Many: {0, 5, 13}},
		"pl":      {One: {1}, Few: {2, 3, 4, 22, 104}, Many: {0, 5, 11, 12, 14, 21, 25, 101, 112}},
		"ar":      {Zero: {0}, One: {1}, Two: {2}, Few: {3, 10, 103, 110}, Many: {11, 26, 99, 111, 1011}, Other: {100, 101, 102, 200, 1000}},
		"he":      {One: {1}, Two: {2}, Other: {0, 3, 10, 20, 100}},
		"ja":      {Other: {0, 1, 2, 100}},
		"zh-Hant": {Other: {1}},
		"th":      {Other: {1}},
		"id":      {Other: {1}},
		"ko":      {Other: {1}},
		"tr":      {One: {1}, Other: {0, 2}},
		"nl":      {One: {1}, Other: {0, 2}},
	} {
		rule := pluralRule(lang)
		for cat, ns := range want {
			for _, n := range ns {
				if got := rule(n); got != cat {
					t.Errorf("%s: %d is %s, want %s", lang, n, got, cat)
				}
			}
		}
	}
}

var verbRE = regexp.MustCompile(`%([-+# 0]*\d*(?:\.\d+)?)(?:\[(\d+)\])?([a-zA-Z%])`)

// verbs lists the format verbs of s in the order of the arguments they
// take: a translation may reorder them with explicit indexes
// ("%[3]d/%02[2]d/%02[1]d" takes what "%02d/%02d/%d" takes).
func verbs(s string) string {
	byArg := map[int]string{}
	arg, percents := 0, 0
	for _, m := range verbRE.FindAllStringSubmatch(s, -1) {
		if m[3] == "%" {
			percents++
			continue
		}
		if m[2] != "" {
			arg, _ = strconv.Atoi(m[2])
		} else {
			arg++
		}
		byArg[arg] += "%" + m[1] + m[3]
	}
	var out []string
	for i := 1; i <= len(byArg); i++ {
		out = append(out, byArg[i])
	}
	for range percents {
		out = append(out, "%%")
	}
	return strings.Join(out, " ")
}

func TestVerbs(t *testing.T) {
	for s, want := range map[string]string{
		"%02d/%02d/%d":          "%02d %02d %d",
		"%[3]d/%02[2]d/%02[1]d": "%02d %02d %d",
		"%d of %d done":         "%d %d",
		"%d %%":                 "%d %%",
		"%s left":               "%s",
	} {
		if got := verbs(s); got != want {
			t.Errorf("verbs(%q) = %q, want %q", s, got, want)
		}
	}
	if got := fmt.Sprintf("%[3]d/%02[2]d/%02[1]d", 2, 3, 2026); got != "2026/03/02" {
		t.Errorf("reordered date = %q", got)
	}
}

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
			for i, s := range []string{f.Zero, f.One, f.Two, f.Few, f.Many, f.Other} {
				// The forms of one number (zero, one, two) may say it in
				// words when the count is all they take.
				if i < 3 && want == "%d" && !strings.Contains(s, "%") {
					continue
				}
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
		"": "vi", "en": "en", "EN": "en", "fr-CA": "fr", "en-US": "en", "de": "de", " fr ": "fr", "vi-VN": "vi",
		"xx": "vi", "zh": "zh-Hans", "zh-CN": "zh-Hans", "zh-TW": "zh-Hant", "zh-HK": "zh-Hant", "zh-Hant-TW": "zh-Hant",
		"zh-hans": "zh-Hans", "zh-Hans-SG": "zh-Hans", "pt": "pt-BR", "pt-PT": "pt-BR", "pt-br": "pt-BR", "iw": "he",
		"he-IL": "he", "ar-EG": "ar", "in": "id", "uk-UA": "uk", "es-419": "es", "de_AT": "de",
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
