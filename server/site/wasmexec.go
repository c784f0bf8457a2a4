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
	{
		// Each call from JavaScript into Go read its event object through
		// seven calls out of the wasm (the event, clearing it, its id, this,
		// its arguments object, that object's length, each argument) and
		// set the result through another, and released two objects: a
		// large share of the calls out of the wasm a stream's event costs.
		// Stepwise's syscall/js
		// (wasm/gosyscalljs-wasm.patch) takes the event in one call and
		// gives the result in one; a token, not a reference, names the
		// event between the two. Unused by a wasm built without the patch.
		why: "take each event in one call",
		old: "\t\t\t\t\t\"debug\": (value) => {\n",
		new: `					// func takeEvent(args []ref) (token, id uint32, this, argsObj ref, n int)
					"syscall/js.takeEvent": (sp) => {
						sp >>>= 0;
						const event = this._pendingEvent;
						if (event === null || event === undefined) {
							this.mem.setUint32(sp + 32, 0, true);
							return;
						}
						this._pendingEvent = null;
						const token = this._nextEventToken;
						this._nextEventToken = token === 0xffffffff ? 1 : token + 1;
						this._takenEvents.set(token, event);
						this.mem.setUint32(sp + 32, token, true);
						this.mem.setUint32(sp + 36, event.id, true);
						storeValue(sp + 40, event.this);
						const args = event.args;
						const n = args.length;
						if (n <= getInt64(sp + 16)) {
							const inline = getInt64(sp + 8);
							for (let i = 0; i < n; i++) {
								storeValue(inline + i * 8, args[i]);
							}
							this.mem.setFloat64(sp + 48, 0, true);
						} else {
							storeValue(sp + 48, args);
						}
						setInt64(sp + 56, n);
					},

					// func returnEvent(token uint32, result ref)
					"syscall/js.returnEvent": (sp) => {
						sp >>>= 0;
						const token = this.mem.getUint32(sp + 8, true);
						const event = this._takenEvents.get(token);
						this._takenEvents.delete(token);
						event.result = loadValue(sp + 16);
					},

					"debug": (value) => {
`,
	},
	{
		why: "keep the events taken",
		old: "\n\t\t\tthis._pendingEvent = null;\n",
		new: "\n\t\t\tthis._pendingEvent = null;\n\t\t\tthis._takenEvents = new Map(); // token -> an event Go took and has not answered yet\n\t\t\tthis._nextEventToken = 1;\n",
	},
}
