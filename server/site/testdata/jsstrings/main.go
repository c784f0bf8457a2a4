//go:build js && wasm

// Command jsstrings hands strings to JavaScript and reads them back, for
// wasmexec_test.go: the same program under go-app's wasm_exec.js and under
// Stepwise's patched one must print the same lines, and every valid UTF-8
// string must come back as it went.
package main

import (
	"fmt"
	"strings"
	"syscall/js"
	"unicode/utf8"
	"unsafe"
)

var failed bool

// roundTrip gives s to JavaScript (loadString) and reads it back.
// TextDecoder drops a leading byte order mark, under both scripts.
func roundTrip(label, s string) {
	back := js.ValueOf(s).String()
	if utf8.ValidString(s) && !strings.HasPrefix(s, "\ufeff") && back != s {
		failed = true
		fmt.Printf("FAIL %s: %q came back as %q\n", label, s, back)
		return
	}
	fmt.Printf("%s %q\n", label, back)
}

func main() {
	for _, s := range []string{"", "a", "class", "_pendingEvent", "aria-expanded",
		strings.Repeat("x", 32), strings.Repeat("y", 33), "été", "日本語", "\U0001F600"} {
		roundTrip("const", s)
		roundTrip("again", s)
	}

	// One address, its bytes changed between calls.
	buf := []byte("aaaa")
	at := unsafe.String(&buf[0], len(buf))
	roundTrip("addr", at)
	buf[1] = 'b'
	roundTrip("addr", at)
	copy(buf, "\xc3\xa9aa") // "éaa": 4 bytes, 3 characters
	roundTrip("addr", at)
	copy(buf, "\xc3\xa9\xc3\xa9") // "éé"
	roundTrip("addr", at)
	copy(buf, "abcd")
	roundTrip("addr", at)
	for _, invalid := range []string{"\xff\xfeab", "a\xc3bc", "\xe9abc", "\xef\xbb\xbfab", "ab\xf0\x9f"} {
		copy(buf, invalid)
		roundTrip("invalid", at)
		roundTrip("invalid", strings.Clone(invalid))
	}

	// More addresses than the script keeps.
	many := make([]byte, 6000*8)
	for i := range 6000 {
		copy(many[i*8:], fmt.Sprintf("k%07d", i))
	}
	for round := range 2 {
		for i := range 6000 {
			s := unsafe.String(&many[i*8], 8)
			if back := js.ValueOf(s).String(); back != s {
				failed = true
				fmt.Printf("FAIL many round %d: %q came back as %q\n", round, s, back)
			}
		}
	}
	fmt.Println("many: done")

	// The wasm memory grows (its buffer changes) between two calls.
	roundTrip("before growth", at)
	grown := make([]byte, 256<<20)
	grown[len(grown)-1] = 1
	copy(buf, "wxyz")
	roundTrip("after growth", at)

	if failed {
		fmt.Println("FAILED")
	} else {
		fmt.Println("PASS", grown[len(grown)-1])
	}
}
