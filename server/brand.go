package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	client "stepwise/app"
	"stepwise/components"
)

// The brand's flags (docs/brand.md): they become page settings (env),
// which every page and the prerender read. -agent-name is the name.
type brandFlags struct {
	accent, logo string
	suggestions  suggestionFlag
}

func addBrandFlags(fs *flag.FlagSet) *brandFlags {
	b := &brandFlags{}
	fs.StringVar(&b.accent, "accent", "", "the brand's accent `colour` (#rrggbb or #rgb): buttons, the user's bubbles, links; a readable text colour is derived")
	fs.StringVar(&b.logo, "logo", "", "`URL` of the brand's logo (an image, https or a path on this site), in place of the Stepwise mark")
	fs.Var(&b.suggestions, "suggestion", "a `prompt` the empty state suggests, in place of the demo's scenarios (repeatable; in STEPWISE_SUGGESTION one a line)")
	return b
}

// apply checks the brand and writes it into the page settings.
func (b *brandFlags) apply(env map[string]string) error {
	if b.accent != "" {
		if components.BrandColors(b.accent) == nil {
			return fmt.Errorf("-accent %q: not a colour (write it #rrggbb or #rgb)", b.accent)
		}
		env[client.EnvAccent] = b.accent
	}
	if b.logo != "" {
		if strings.ContainsAny(b.logo, "\"'<> ") || strings.HasPrefix(strings.ToLower(b.logo), "javascript:") {
			return errors.New("-logo: not an image URL")
		}
		env[client.EnvLogo] = b.logo
	}
	if len(b.suggestions) > 0 {
		env[client.EnvSuggestions] = strings.Join(b.suggestions, "\n")
	}
	return nil
}

// suggestionFlag is -suggestion: repeatable, one prompt each.
type suggestionFlag []string

func (*suggestionFlag) repeatable() {}

func (s *suggestionFlag) String() string {
	if s == nil {
		return ""
	}
	return strings.Join(*s, " | ")
}

func (s *suggestionFlag) Set(v string) error {
	if v = strings.TrimSpace(v); v != "" {
		*s = append(*s, v)
	}
	return nil
}
