// Command server serves the Stepwise app. "server replay" prints the view
// model of a captured history and stream (REPLAY.md); "server export DIR"
// writes the app as static files (export.go); "server healthcheck" asks a
// running server whether it is healthy (healthcheck.go).
package main

import (
	"os"

	"stepwise/server/replay"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "replay" {
		os.Exit(replay.Run(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "export" {
		os.Exit(export(os.Args[2:], os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "healthcheck" {
		os.Exit(healthcheck(os.Args[2:], os.Stderr))
	}
	os.Exit(serve(os.Args[1:]))
}
