//go:build !goldmarkomitregexp

package components

import (
	"regexp"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

func linkify() goldmark.Extender {
	return extension.NewLinkify(
		extension.WithLinkifyURLRegexp(regexp.MustCompile(linkifyURLPattern)),
		extension.WithLinkifyWWWRegexp(regexp.MustCompile(linkifyWWWPattern)))
}
