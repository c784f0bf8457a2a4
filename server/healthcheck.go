package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// healthcheck asks a running server's /healthz and exits 0 when it says
// ok ("stepwise healthcheck"): the container image has no shell or curl,
// so its HEALTHCHECK runs this. It reads -addr as the server does
// (STEPWISE_ADDR included), and reaches a wildcard address on loopback.
func healthcheck(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("stepwise healthcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "localhost:8080", "the server's listen `address`")
	timeout := fs.Duration("timeout", 5*time.Second, "give up after this `long`")
	fs.Usage = usageWithEnv(fs, "Usage: stepwise healthcheck [flags]")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	// Only -addr and -timeout are read here: the server's other variables
	// (the container's whole configuration) are not this command's.
	env := []string{}
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, envName("addr")+"=") {
			env = append(env, kv)
		}
	}
	if _, err := applyEnv(fs, env); err != nil {
		fmt.Fprintln(stderr, "stepwise healthcheck:", err)
		return 2
	}
	host, port, err := net.SplitHostPort(*addr)
	if err != nil {
		fmt.Fprintln(stderr, "stepwise healthcheck: -addr:", err)
		return 2
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	c := &http.Client{Timeout: *timeout}
	resp, err := c.Get("http://" + net.JoinHostPort(host, port) + "/healthz")
	if err != nil {
		fmt.Fprintln(stderr, "stepwise healthcheck:", err)
		return 1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintf(stderr, "stepwise healthcheck: %s: %s\n", resp.Status, strings.TrimSpace(string(body)))
		return 1
	}
	return 0
}
