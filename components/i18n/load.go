package i18n

import (
	"encoding/json"
	"fmt"
	"slices"
)

// catalogFile is a catalog's JSON (catalogs/LANG.json):
//
//	{"text": {"key": "string", ...},
//	 "plurals": {"key": {"one": "%d result", "other": "%d results"}, ...}}
type catalogFile struct {
	Text    map[string]string `json:"text"`
	Plurals map[string]Forms  `json:"plurals"`
}

// Register parses lang's catalog (catalogs/LANG.json) and makes it the
// language's. The browser's app registers the one its page needs; the
// server has them all (embed.go).
func Register(lang string, data []byte) error {
	if !slices.Contains(Languages, lang) {
		return fmt.Errorf("i18n: %q is not one of the languages", lang)
	}
	var f catalogFile
	if err := json.Unmarshal(data, &f); err != nil {
		return fmt.Errorf("i18n: catalog %s: %w", lang, err)
	}
	if len(f.Text) == 0 {
		return fmt.Errorf("i18n: catalog %s has no strings", lang)
	}
	mu.Lock()
	defer mu.Unlock()
	if catalogs[lang] == nil || (lang != "vi" && lang != "en") {
		catalogs[lang] = &catalog{text: f.Text, plurals: f.Plurals}
	}
	return nil
}

// Builtin says whether lang's catalog is compiled into every build (the
// browser's app needs to fetch the others).
func Builtin(lang string) bool { return lang == "vi" || lang == "en" }
