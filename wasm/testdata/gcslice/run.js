// Runs gcslice.wasm under Node (argv: wasm_exec.js, the .wasm) with a
// MessageChannel loop standing for the browser's other tasks, and prints
// how many of them ran before the collection finished.
"use strict";
const fs = require("fs");
require(process.argv[2]);

const go = new Go();
const channel = new MessageChannel();
let ticks = 0;
channel.port1.onmessage = () => {
  // Go gets no call from here: without the runtime's own timeout to come
  // back, a sliced mark would never finish (given up after 5M tasks).
  if (globalThis.gcDone || ticks >= 5e6) {
    console.log(JSON.stringify({ ticks, finished: !!globalThis.gcDone }));
    process.exit(0);
  }
  ticks++;
  channel.port2.postMessage(0);
};
WebAssembly.instantiate(fs.readFileSync(process.argv[3]), go.importObject).then(({ instance }) => {
  channel.port2.postMessage(0);
  go.run(instance);
});
