// Package i18n holds Stepwise's user-visible strings: one catalog per
// language (vi.go, en.go, fr.go), and Locale, the small immutable value the
// views receive as a prop to look them up.
//
// A key names what its string is for. A string that counts something is a
// plural message: one form per CLDR plural category the language uses
// (vi: other; en: one, other; fr: one, many, other), picked by N.
// The tests check that every language has every key and form, that the
// forms of one key take the same format verbs, and that every key is used.
package i18n

import (
	"fmt"
	"strings"
)

// Languages are the catalogs' languages, the default first.
var Languages = []string{"vi", "en", "fr"}

// Default is the language used when none is asked for or matched.
const Default = "vi"

// Category is a CLDR plural category.
type Category int

const (
	Other Category = iota
	One
	Many
)

func (c Category) String() string {
	switch c {
	case One:
		return "one"
	case Many:
		return "many"
	}
	return "other"
}

// Forms are a plural message's forms; a language fills the categories its
// plural rule returns and leaves the others empty.
type Forms struct {
	One, Many, Other string
}

func (f Forms) get(c Category) string {
	switch c {
	case One:
		return f.One
	case Many:
		return f.Many
	}
	return f.Other
}

// catalog is one language's strings.
type catalog struct {
	// plural maps a count to its CLDR category (integers only: Stepwise
	// counts things).
	plural  func(n int) Category
	text    map[string]string
	plurals map[string]Forms
}

var catalogs = map[string]*catalog{"vi": &vi, "en": &en, "fr": &fr}

// Locale is a UI language. It is a value: copy it, compare it, pass it as a
// prop. The zero Locale is the default language.
type Locale struct {
	lang string
}

// Match maps a language tag ("fr", "fr-CA", "EN") to a Locale: an exact
// match, else the tag's base language, else the default.
func Match(tag string) Locale {
	tag = strings.ToLower(strings.TrimSpace(tag))
	if _, ok := catalogs[tag]; ok {
		return Locale{tag}
	}
	base, _, _ := strings.Cut(tag, "-")
	if _, ok := catalogs[base]; ok {
		return Locale{base}
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

func (l Locale) catalog() *catalog { return catalogs[l.Lang()] }

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
	c := l.catalog()
	forms, ok := c.plurals[key]
	if !ok {
		c = &en
		if forms, ok = en.plurals[key]; !ok {
			return key
		}
	}
	s := forms.get(c.plural(n))
	if s == "" {
		s = forms.Other
	}
	return fmt.Sprintf(s, append([]any{n}, args...)...)
}

// pluralOther is the rule of languages without plural forms (vi).
func pluralOther(int) Category { return Other }

// pluralEN: one for 1, other for the rest.
func pluralEN(n int) Category {
	if n == 1 {
		return One
	}
	return Other
}

// pluralFR: one for 0 and 1, many for non-zero multiples of a million
// ("1 000 000 de résultats"), other for the rest.
func pluralFR(n int) Category {
	switch {
	case n == 0 || n == 1:
		return One
	case n%1_000_000 == 0:
		return Many
	}
	return Other
}
