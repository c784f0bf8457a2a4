package main

import (
	"flag"
	"fmt"
	"net/url"
	"strings"

	client "stepwise/app"
)

// feedbackFlag is where the page sends a person's rating of an answer in
// the AG-UI and AI SDK modes (docs/protocol-extensions.md#feedback): a
// path on this site, or a URL, whose origin the page is then allowed to
// connect to. The native protocol sends it as a frame instead.
type feedbackFlag struct{ url string }

func addFeedbackFlag(fs *flag.FlagSet) *feedbackFlag {
	f := &feedbackFlag{}
	fs.Func("feedback-url", "where pages POST the ratings of answers in the ag-ui and ai-sdk modes (a `URL` or a path; none: no thumbs there)", func(v string) error {
		v = strings.TrimSpace(v)
		u, err := url.Parse(v)
		switch {
		case err != nil, v == "":
			return fmt.Errorf("%q is not a URL", v)
		case u.IsAbs() && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "":
		case !u.IsAbs() && strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//"):
		default:
			return fmt.Errorf("%q: give an http(s) URL or a path starting with /", v)
		}
		f.url = v
		return nil
	})
	return f
}

// pageEnv tells the pages the endpoint.
func (f *feedbackFlag) pageEnv(env map[string]string) {
	if f.url != "" {
		env[client.EnvFeedbackURL] = f.url
	}
}

// connectSrc is the endpoint's origin when it is another site's.
func (f *feedbackFlag) connectSrc() []string {
	if u, err := url.Parse(f.url); err == nil && u.IsAbs() {
		return []string{u.Scheme + "://" + u.Host}
	}
	return nil
}
