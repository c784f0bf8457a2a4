package browsertest

// What V8 compiles of the wasm while a stream plays, read from Chromium's
// output under --trace-wasm-compilation-times and --trace-deopt (make
// bench-tiering). No browser here: the parsing, tested on V8's own lines.

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// wasmCompile is one function V8 compiled.
type wasmCompile struct {
	index     int
	optimised bool // TurboFan; else Liftoff, V8's baseline
	micros    int  // the job's wall time, on whichever thread ran it
	bodyBytes int  // the function's wasm body
}

// wasmTiering is what V8 printed of its compiling, in order.
type wasmTiering struct {
	compiles []wasmCompile
	deopts   []string // the wasm functions whose optimised code V8 dropped
}

var (
	compiledLine = regexp.MustCompile(`^Compiled function 0x[0-9a-f]+#(\d+) using (\w+), took (\d+) μs.*\bbodysize (\d+)`)
	wasmDeopt    = regexp.MustCompile(`^\[bailout \(kind: [^,]+, reason: [^)]*, type: Wasm\): begin\. deoptimizing (\S+), function index`)
)

// parseTiering reads V8's lines from Chromium's output; other lines are
// skipped.
func parseTiering(out []byte) wasmTiering {
	var tr wasmTiering
	for _, line := range bytes.Split(out, []byte("\n")) {
		if m := compiledLine.FindSubmatch(line); m != nil {
			index, _ := strconv.Atoi(string(m[1]))
			micros, _ := strconv.Atoi(string(m[3]))
			body, _ := strconv.Atoi(string(m[4]))
			tr.compiles = append(tr.compiles, wasmCompile{index, string(m[2]) == "TurboFan", micros, body})
		} else if m := wasmDeopt.FindSubmatch(line); m != nil {
			tr.deopts = append(tr.deopts, string(m[1]))
		}
	}
	return tr
}

// wasmFunctionNames reads the function names of a wasm module's "name"
// section, by function index (imports first, as V8 numbers them).
func wasmFunctionNames(module []byte) (map[int]string, error) {
	if len(module) < 8 || !bytes.Equal(module[:4], []byte("\x00asm")) {
		return nil, errors.New("not a wasm module")
	}
	r := bytes.NewReader(module[8:])
	for r.Len() > 0 {
		id, err := r.ReadByte()
		if err != nil {
			return nil, err
		}
		size, err := binary.ReadUvarint(r)
		if err != nil || size > uint64(r.Len()) {
			return nil, errors.New("a section runs past the module's end")
		}
		section := make([]byte, size)
		io.ReadFull(r, section)
		if id != 0 {
			continue
		}
		s := bytes.NewReader(section)
		if name, err := readName(s); err != nil || name != "name" {
			continue
		}
		for s.Len() > 0 {
			sub, _ := s.ReadByte()
			subSize, err := binary.ReadUvarint(s)
			if err != nil || subSize > uint64(s.Len()) {
				return nil, errors.New("a name subsection runs past its section")
			}
			body := make([]byte, subSize)
			io.ReadFull(s, body)
			if sub != 1 { // 1: function names
				continue
			}
			return readNameMap(bytes.NewReader(body))
		}
	}
	return nil, errors.New("no function names: build the wasm without -ldflags='-s -w'")
}

func readName(r *bytes.Reader) (string, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil || n > uint64(r.Len()) {
		return "", errors.New("a name runs past its section")
	}
	b := make([]byte, n)
	io.ReadFull(r, b)
	return string(b), nil
}

func readNameMap(r *bytes.Reader) (map[int]string, error) {
	count, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, err
	}
	names := make(map[int]string, count)
	for range count {
		index, err := binary.ReadUvarint(r)
		if err != nil {
			return nil, err
		}
		name, err := readName(r)
		if err != nil {
			return nil, err
		}
		names[int(index)] = name
	}
	return names, nil
}

// printTiering prints what V8 compiled while the stream played: the
// functions optimised, largest first, and the optimised code dropped.
func printTiering(w io.Writer, tr wasmTiering, names map[int]string, top int) {
	var optimised []wasmCompile
	baseline, bodies, micros := 0, 0, 0
	for _, c := range tr.compiles {
		if !c.optimised {
			baseline++
			continue
		}
		optimised = append(optimised, c)
		bodies += c.bodyBytes
		micros += c.micros
	}
	fmt.Fprintf(w, "V8 while the stream played: %d functions optimised (%.0f KB of wasm bodies, %.0f ms of optimising jobs' wall time), %d compiled on first call (baseline), %d optimised codes dropped\n",
		len(optimised), float64(bodies)/1024, float64(micros)/1000, baseline, len(tr.deopts))
	slices.SortStableFunc(optimised, func(a, b wasmCompile) int { return cmp.Compare(b.bodyBytes, a.bodyBytes) })
	fmt.Fprintf(w, "  %8s %7s  %s\n", "wasm B", "ms", "function (largest first)")
	for i, c := range optimised {
		if i == top {
			break
		}
		name := names[c.index]
		if name == "" {
			name = "#" + strconv.Itoa(c.index)
		}
		fmt.Fprintf(w, "  %8d %7.1f  %s\n", c.bodyBytes, float64(c.micros)/1000, name)
	}
	for _, d := range tr.deopts {
		fmt.Fprintf(w, "  optimised code dropped: %s\n", d)
	}
}

func TestParseTiering(t *testing.T) {
	// Lines as Chromium 156's V8 prints them, among others.
	out := []byte(`[1234:5678:INFO:CONSOLE] something else
Compiled function 0xeb400755b18#1584 using Liftoff, took 59 μs and 13584 bytes; bodysize 37 codesize 196
Compiled function 0x3cec0076ed98#1482 using TurboFan, took 14183 μs and 1501576 / 3299712 max/total bytes; bodysize 5780 codesize 11024 name wasm-function#1482
[bailout (kind: deopt-eager, reason: wrong call target, type: Wasm): begin. deoptimizing github.com_maxence_charriere_go_app_v10_pkg_app.__updateManager_.Add, function index 3837, bytecode offset 3704001, deopt exit 0, FP to SP delta 72, pc 0x187d7875013a]
[bailout (kind: deopt-eager, reason: Insufficient type feedback for generic named access): begin. deoptimizing 0x0c20010f9c3d <JSFunction channel.port1.onmessage (sfi = 0xc20010f94d9)>, 0x169d01047025 <Code MAGLEV>, opt id 12, bytecode offset 33, deopt exit 1, FP to SP delta 24, caller SP 0x7ffd7d326b20, pc 0x561cc7f86b90]
`)
	tr := parseTiering(out)
	want := []wasmCompile{{1584, false, 59, 37}, {1482, true, 14183, 5780}}
	if !slices.Equal(tr.compiles, want) {
		t.Errorf("compiles = %v, want %v", tr.compiles, want)
	}
	// A JavaScript function's deoptimisation is not the wasm's.
	if want := []string{"github.com_maxence_charriere_go_app_v10_pkg_app.__updateManager_.Add"}; !slices.Equal(tr.deopts, want) {
		t.Errorf("deopts = %q, want %q", tr.deopts, want)
	}
	var b bytes.Buffer
	printTiering(&b, tr, map[int]string{1482: "runtime.moduledataverify1"}, 10)
	for _, s := range []string{"1 functions optimised (6 KB of wasm bodies, 14 ms", "1 compiled on first call", "1 optimised codes dropped", "5780    14.2  runtime.moduledataverify1"} {
		if !bytes.Contains(b.Bytes(), []byte(s)) {
			t.Errorf("printed %q, without %q", b.String(), s)
		}
	}
}

func TestWasmFunctionNames(t *testing.T) {
	// A module with a type section and a name section naming functions 0
	// and 2 (module name and locals subsections around it, skipped).
	names := []byte{1, // function names
		9, // size
		2, // count
		0, 1, 'a',
		2, 3, 'b', '.', 'c'}
	nameSection := append([]byte{4, 'n', 'a', 'm', 'e', 0, 2, 1, 'm'}, names...)
	nameSection = append(nameSection, 2, 1, 0) // locals: none
	module := []byte("\x00asm\x01\x00\x00\x00")
	module = append(module, 1, 4, 1, 0x60, 0, 0) // a type section
	module = append(module, 0, byte(len(nameSection)))
	module = append(module, nameSection...)
	got, err := wasmFunctionNames(module)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "a" || got[2] != "b.c" {
		t.Errorf("names = %v", got)
	}
	if _, err := wasmFunctionNames(module[:len(module)-len(nameSection)-2]); err == nil {
		t.Error("a module without names gave no error")
	}
	if _, err := wasmFunctionNames(module[:20]); err == nil {
		t.Error("a cut module gave no error")
	}
}
