package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

// Every flag can also come from the environment, as containers are
// configured: -foo-bar from STEPWISE_FOO_BAR, or from the file that
// STEPWISE_FOO_BAR_FILE names (a mounted secret). A flag on the command
// line wins over its variable. A repeatable flag (-backend-header) takes
// one value per line of its variable or file.

const envPrefix = "STEPWISE_"

// pageEnvPrefix names the page's settings, which go-app copies into the
// server's environment (app/config.go): they are not flags.
const pageEnvPrefix = "STEPWISE_PAGE_"

// envName is the variable of the flag name: backend-header ->
// STEPWISE_BACKEND_HEADER.
func envName(flagName string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// repeatable is a flag value that takes several values, one per Set.
type repeatable interface{ repeatable() }

// applyEnv sets every flag of fs that the command line left unset from
// its variable in environ (os.Environ's form). It returns the variables
// of the prefix that name no flag (a typo, most likely; the page's
// settings and test switches aside), for a warning.
func applyEnv(fs *flag.FlagSet, environ []string) (unknown []string, err error) {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, envPrefix) {
			env[k] = v
		}
	}
	onCommandLine := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { onCommandLine[f.Name] = true })
	known := map[string]bool{}
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		known[name], known[name+"_FILE"] = true, true
		value, inline := env[name]
		file, inFile := env[name+"_FILE"]
		if onCommandLine[f.Name] || (!inline && !inFile) {
			return
		}
		source := name
		if inline && inFile {
			errs = append(errs, fmt.Errorf("%s and %s_FILE are both set: keep one", name, name))
			return
		}
		if inFile {
			b, err := os.ReadFile(file)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s_FILE: %w", name, err))
				return
			}
			value, source = string(b), name+"_FILE"
		}
		if _, ok := f.Value.(repeatable); ok {
			for _, line := range strings.Split(value, "\n") {
				if line = strings.TrimSpace(line); line == "" {
					continue
				}
				if err := f.Value.Set(line); err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", source, err))
				}
			}
			return
		}
		if inFile {
			value = strings.TrimRight(value, "\r\n") // a file's last line ends with a newline
		}
		if err := fs.Set(f.Name, value); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", source, err))
		}
	})
	for k := range env {
		if !known[k] && !strings.HasPrefix(k, pageEnvPrefix) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	return unknown, errors.Join(errs...)
}

// envUsage is the flag usage's last paragraph.
const envUsage = `
Every flag may also be set in the environment: -foo-bar by STEPWISE_FOO_BAR,
or by the file STEPWISE_FOO_BAR_FILE names. The command line wins. A flag
that may be repeated takes one value per line.
`

// usageWithEnv prints fs's usage followed by envUsage.
func usageWithEnv(fs *flag.FlagSet, synopsis string) func() {
	return func() {
		out := fs.Output()
		fmt.Fprintln(out, synopsis)
		fs.PrintDefaults()
		fmt.Fprint(out, envUsage)
	}
}
