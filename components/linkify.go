package components

// GFM's autolinks, as goldmark finds them (extension.GFM's linkify) but
// without its bound of 256 characters before a domain's last dot, which
// GFM does not set: for any line shorter than the bound the two find the
// same links (TestLinkifyMatchers); a longer address is linked whole.
//
// The browser build (tag goldmarkomitregexp, with wasm/goldmark-wasm.patch)
// matches them by hand and links no package regexp (linkify_matchers.go);
// every other build, the patched goldmark or goldmark as released, compiles
// these expressions (linkify_regexp.go).
const (
	linkifyURLPattern = `^(?:http|https|ftp)://[-a-zA-Z0-9@:%._\+~#=]+\.[a-z]+(?::\d+)?(?:[/#?][-a-zA-Z0-9@:%_+.~#$!?&/=\(\);,'">\^{}\[\]` + "`" + `]*)?`
	linkifyWWWPattern = `^www\.[-a-zA-Z0-9@:%._\+~#=]+\.[a-z]+(?:[/#?][-a-zA-Z0-9@:%_\+.~#!?&/=\(\);,'">\^{}\[\]` + "`" + `]*)?`
)
