package main

import (
	"fmt"
	"os"
)

func serve(args []string) int {
	fmt.Fprintln(os.Stderr, "serve: not yet")
	return 1
}
