package components

import "stepwise/components/i18n"

// locale is the UI language, set once at start-up.
// TODO(issue 8): pass it as a prop instead of a package variable.
var locale i18n.Locale

// Languages are the catalogs' languages, the default first.
var Languages = i18n.Languages

// SetLanguage picks the catalog for a language tag and returns its language.
func SetLanguage(tag string) string {
	locale = i18n.Match(tag)
	return locale.Lang()
}

// Language returns the UI language.
func Language() string { return locale.Lang() }

// MatchLanguage maps a language tag to a catalog.
func MatchLanguage(tag string) string { return i18n.Match(tag).Lang() }

// T returns the string for key in the UI language, formatted with args.
func T(key string, args ...any) string { return locale.T(key, args...) }

// N returns the plural message key for count n in the UI language.
func N(key string, n int, args ...any) string { return locale.N(key, n, args...) }
