// Package replay implements the "replay" subcommand (REPLAY.md): it feeds a
// captured history and event stream to the state store and prints the view
// model the UI would show.
package replay

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"stepwise/state"
	"stepwise/state/wire"
)

// Run runs the replay command with args (after the word "replay") and
// returns the exit code: 0 on success, 2 when an input cannot be read.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	historyPath := fs.String("history", "", "history response `FILE` (- for standard input)")
	eventsPath := fs.String("events", "", "stream events `FILE`: one JSON object a line, or Server-Sent Events (- for standard input)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *historyPath == "-" && *eventsPath == "-" {
		fmt.Fprintln(stderr, "replay: only one of --history and --events can read standard input")
		return 2
	}
	s := state.New(state.DefaultOptions())
	if *historyPath != "" {
		data, err := readInput(*historyPath, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "replay: %v\n", err)
			return 2
		}
		h, err := wire.DecodeHistory(data)
		if err != nil {
			fmt.Fprintf(stderr, "replay: history %s is not valid JSON: %v\n", *historyPath, err)
			return 2
		}
		s.LoadHistory(h)
	}
	if *eventsPath != "" {
		if err := applyEvents(s, *eventsPath, stdin); err != nil {
			fmt.Fprintf(stderr, "replay: %v\n", err)
			return 2
		}
	}
	out, err := json.MarshalIndent(s.View(), "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "replay: %v\n", err)
		return 2
	}
	stdout.Write(append(out, '\n'))
	return 0
}

func readInput(path string, stdin io.Reader) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(path)
}

// applyEvents applies the file's frames in order: JSONL, or Server-Sent
// Events as captured off the wire, or both mixed (wire.ReadCapture: the
// browser's own SSE parser).
func applyEvents(s *state.Store, path string, stdin io.Reader) error {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	if err := wire.ReadCapture(r, func(frame []byte) { s.ApplyJSON(frame) }); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	return nil
}
