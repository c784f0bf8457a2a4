// Runs gcslice.wasm under Node (argv: wasm_exec.js, the .wasm, the mode)
// beside a MessageChannel loop standing for the browser's other tasks.
// Prints {"ticks": tasks run before the collection finished, "finished"}.
"use strict";
const fs = require("fs");
require(process.argv[2]);
const mode = process.argv[4];

const go = new Go();
go.argv = ["gcslice", mode];
const channel = new MessageChannel();
let ticks = 0;
const report = (finished) => {
  console.log(JSON.stringify({ ticks, finished }));
  process.exit(0);
};
channel.port1.onmessage = () => {
  if (mode === "callback" && globalThis.gcNow) {
    // JavaScript waits inside this call until the collection is over.
    report(globalThis.gcNow() === "ok");
  }
  // Go gets no call from here: without the runtime's own timeout to come
  // back, a sliced mark would never finish (given up after 5M tasks).
  if (globalThis.gcDone || ticks >= 5e6) {
    report(!!globalThis.gcDone);
  }
  ticks++;
  channel.port2.postMessage(0);
};
WebAssembly.instantiate(fs.readFileSync(process.argv[3]), go.importObject).then(({ instance }) => {
  channel.port2.postMessage(0);
  go.run(instance);
});
