// Package i18n holds Stepwise's user-visible strings: one catalog per
// language, and Locale, the small immutable value the views receive as a
// prop to look them up.
//
// Vietnamese (the default) and English (the fallback of a missing key) are
// Go (vi.go, en.go), compiled into every build. The other languages are
// JSON files (catalogs/LANG.json, format in load.go): the server embeds
// them (embed.go), prerenders its pages in them and serves them at
// /web/i18n/LANG.json; the browser's app, which must stay small, fetches
// the one its page needs and registers it (Register) before it renders.
//
// A key names what its string is for. A string that counts something is a
// plural message: one form per CLDR plural category the language uses for
// whole numbers (plural.go), picked by N. The tests check that every
// language has every key and form, that the forms of one key take the same
// format verbs, and that every key is used.
package i18n

import (
	"fmt"
	"strings"
	"sync"
)

// Languages are the catalogs' languages (BCP 47 tags), the default first.
var Languages = []string{
	"vi", "en", "fr", "zh-Hans", "zh-Hant", "ja", "ko", "es", "de", "pt-BR", "it",
	"nl", "pl", "tr", "ru", "uk", "id", "th", "hi", "ar", "he",
}

// Default is the language used when none is asked for or matched.
const Default = "vi"

// names are the languages' own names, for the language menu.
var names = map[string]string{
	"vi": "Tiếng Việt", "en": "English", "fr": "Français", "zh-Hans": "简体中文", "zh-Hant": "繁體中文",
	"ja": "日本語", "ko": "한국어", "es": "Español", "de": "Deutsch", "pt-BR": "Português (Brasil)",
	"it": "Italiano", "nl": "Nederlands", "pl": "Polski", "tr": "Türkçe", "ru": "Русский",
	"uk": "Українська", "id": "Bahasa Indonesia", "th": "ไทย", "hi": "हिन्दी", "ar": "العربية", "he": "עברית",
}

// Name is a language's name in that language ("Deutsch"), "" for none.
func Name(lang string) string { return names[lang] }

// rtl are the languages written right to left.
var rtl = map[string]bool{"ar": true, "he": true}

// aliases map the tags a browser may send to a catalog's language: the
// scripts and regions of Chinese, Portuguese's regions, old codes.
var aliases = map[string]string{
	"zh": "zh-Hans", "zh-cn": "zh-Hans", "zh-sg": "zh-Hans", "zh-my": "zh-Hans",
	"zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-mo": "zh-Hant",
	"pt": "pt-BR", "iw": "he", "in": "id",
}

// catalog is one language's strings.
type catalog struct {
	text    map[string]string
	plurals map[string]Forms
}

var (
	mu       sync.RWMutex
	catalogs = map[string]*catalog{"vi": &vi, "en": &en}
)

// Loaded says whether lang's catalog is there: compiled in, embedded
// (outside the browser) or registered.
func Loaded(lang string) bool {
	mu.RLock()
	defer mu.RUnlock()
	return catalogs[lang] != nil
}

func catalogOf(lang string) *catalog {
	mu.RLock()
	defer mu.RUnlock()
	return catalogs[lang]
}

// Locale is a UI language. It is a value: copy it, compare it, pass it as a
// prop. The zero Locale is the default language.
type Locale struct {
	lang string
}

// Match maps a language tag ("fr", "fr-CA", "EN", "zh-TW") to a Locale:
// an exact match, else an alias (zh-TW: zh-Hant), else the tag's language
// and script, else its language, else the default. The Locale may name a
// language whose catalog is not loaded yet (Loaded).
func Match(tag string) Locale {
	tag = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(tag, "_", "-")))
	parts := strings.Split(tag, "-")
	for n := len(parts); n > 0; n-- {
		t := strings.Join(parts[:n], "-")
		for _, lang := range Languages {
			if strings.EqualFold(lang, t) {
				return Locale{lang}
			}
		}
		if lang, ok := aliases[t]; ok {
			return Locale{lang}
		}
	}
	return Locale{Default}
}

// Lang is the locale's language, a BCP 47 tag for <html lang>.
func (l Locale) Lang() string {
	if l.lang == "" {
		return Default
	}
	return l.lang
}

// Dir is the locale's writing direction: "rtl" or "ltr", for <html dir>.
func (l Locale) Dir() string {
	if rtl[l.Lang()] {
		return "rtl"
	}
	return "ltr"
}

func (l Locale) catalog() *catalog {
	if c := catalogOf(l.Lang()); c != nil {
		return c
	}
	return &en
}

// T returns the string for key, formatted with args. A key missing from
// the catalog (the tests forbid it) falls back to English, then to the key.
func (l Locale) T(key string, args ...any) string {
	s, ok := l.catalog().text[key]
	if !ok {
		if s, ok = en.text[key]; !ok {
			s = key
		}
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// N returns the plural message key in the form for count n, formatted with
// n followed by args.
func (l Locale) N(key string, n int, args ...any) string {
	c, rule := l.catalog(), pluralRule(l.Lang())
	forms, ok := c.plurals[key]
	if !ok || c == &en {
		rule = pluralRule("en")
		if forms, ok = en.plurals[key]; !ok {
			return key
		}
	}
	s := forms.get(rule(n))
	if s == "" {
		s = forms.Other
	}
	if !strings.Contains(s, "%") {
		return s // a form that says its number in words ("نتيجتان", two results)
	}
	return fmt.Sprintf(s, append([]any{n}, args...)...)
}
