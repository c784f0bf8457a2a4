// Runs jsevents.wasm under Node (argv: wasm_exec.js, the .wasm) and calls
// its functions; prints {"sum", "nested", "held"}: the results, and how
// many JavaScript values Go still holds after the calls.
"use strict";
const fs = require("fs");
require(process.argv[2]);

const go = new Go();
WebAssembly.instantiate(fs.readFileSync(process.argv[3]), go.importObject).then(({ instance }) => {
  go.run(instance); // main sets the functions, then waits
  const held = () => go._values.length - go._idPool.length;
  const before = held();
  globalThis.jsEventsInner = (x) => globalThis.jsEventsAdd.call({ base: 0 }, { n: x.n }, 1);
  let sum = 0;
  let nested = 0;
  for (let i = 0; i < 1000; i++) {
    sum += globalThis.jsEventsAdd.call({ base: 1 }, { n: i }, 2);
    nested += globalThis.jsEventsNested({ n: i });
  }
  console.log(JSON.stringify({ sum, nested, held: held() - before }));
  process.exit(0);
});
