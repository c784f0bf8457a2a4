// Command server serves the Stepwise app. "server replay" prints the view
// model of a captured history and stream (REPLAY.md).
package main

import (
	"os"

	"stepwise/server/replay"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "replay" {
		os.Exit(replay.Run(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(serve(os.Args[1:]))
}
