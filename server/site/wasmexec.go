package site

// wasmExecPatches change Go's wasm_exec.js (the JavaScript half of
// syscall/js, as go-app serves it). Each must apply exactly once: when
// go-app or Go change the script, New fails and says so.
var wasmExecPatches = []scriptPatch{
	{
		// Every property, method and attribute name Go hands to JavaScript
		// is decoded from the wasm memory by a TextDecoder call, whose fixed
		// cost dwarfs a name of a few bytes, and a stream's renders hand
		// over thousands of them. Those names are mostly constants of the binary,
		// at the same addresses every time: a short string decoded at an
		// address is kept and served again while the bytes there still read
		// the same. A kept string as long as its bytes came from one byte
		// per character, so it is ASCII but for U+FFFD, which no byte
		// equals: a match means the bytes are that same ASCII text.
		why: "decode short strings once per address",
		old: `			const loadString = (addr) => {
				const saddr = getInt64(addr + 0);
				const len = getInt64(addr + 8);
				return decoder.decode(new DataView(this._inst.exports.mem.buffer, saddr, len));
			}
`,
		new: `			const shortStrings = new Map(); // address -> the short string decoded there
			let memBytes = new Uint8Array(0);
			const loadString = (addr) => {
				const saddr = getInt64(addr + 0);
				const len = getInt64(addr + 8);
				const buffer = this._inst.exports.mem.buffer;
				if (len > 32) {
					return decoder.decode(new DataView(buffer, saddr, len));
				}
				if (memBytes.buffer !== buffer) {
					memBytes = new Uint8Array(buffer);
				}
				let s = shortStrings.get(saddr);
				if (s !== undefined && s.length === len) {
					let i = 0;
					while (i < len && memBytes[saddr + i] === s.charCodeAt(i)) {
						i++;
					}
					if (i === len) {
						return s;
					}
				}
				s = decoder.decode(new DataView(buffer, saddr, len));
				if (shortStrings.size >= 4096) {
					shortStrings.clear();
				}
				shortStrings.set(saddr, s);
				return s;
			}
`,
	},
}
