//go:build goldmarkomitregexp

package components

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

func linkify() goldmark.Extender {
	return extension.NewLinkify(extension.WithLinkifyURLMatcher(linkifyURL), extension.WithLinkifyWWWMatcher(linkifyWWW))
}

func linkifyURL(line []byte) int { return extension.LinkifyURLLength(line, -1) }

func linkifyWWW(line []byte) int { return extension.LinkifyWWWLength(line, -1) }
