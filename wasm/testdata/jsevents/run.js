// Runs jsevents.wasm under Node (argv: wasm_exec.js, the .wasm) and calls
// its functions; prints {"sum", "nested", "held", "calls", "many", "once",
// "errors"}: the results, how many JavaScript values Go still holds after
// the first calls and the calls it made out of the wasm during them (by
// import name), what the other functions answered and what Go wrote to
// console.error.
"use strict";
const fs = require("fs");
require(process.argv[2]);

const go = new Go();
// Calls out of the wasm during the first calls, by name.
const calls = {};
let counting = false;
for (const [name, f] of Object.entries(go.importObject.gojs)) {
  go.importObject.gojs[name] = (...args) => {
    if (counting) calls[name] = (calls[name] || 0) + 1;
    return f(...args);
  };
}
WebAssembly.instantiate(fs.readFileSync(process.argv[3]), go.importObject).then(({ instance }) => {
  go.run(instance); // main sets the functions, then waits
  const held = () => go._values.length - go._idPool.length;
  const before = held();
  globalThis.jsEventsInner = (x) => globalThis.jsEventsAdd.call({ base: 0 }, { n: x.n }, 1);
  let sum = 0;
  let nested = 0;
  counting = true;
  for (let i = 0; i < 1000; i++) {
    sum += globalThis.jsEventsAdd.call({ base: 1 }, { n: i }, 2);
    nested += globalThis.jsEventsNested({ n: i });
  }
  counting = false;
  const heldAfter = held() - before;
  const many = [[], ["a", 2, true, null], ["a", 2, true, null, undefined], [1, 2, 3, 4, 5, 6, 7, 8, 9]].map((a) => globalThis.jsEventsMany(...a));
  const errors = [];
  console.error = (...a) => errors.push(a.join(" "));
  const once = [globalThis.jsEventsOnce(), String(globalThis.jsEventsOnce())];
  console.log(JSON.stringify({ sum, nested, held: heldAfter, calls, many, once, errors }));
  process.exit(0);
});
