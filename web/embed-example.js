// The example page's own script: it drives the embedded assistant through
// the loader's API and logs its events.
(function () {
  function log(line) { document.getElementById("log").textContent += line + "\n"; }
  function whenReady(fn) { if (window.Stepwise) fn(); else setTimeout(function () { whenReady(fn); }, 20); }
  document.getElementById("open").addEventListener("click", function () { whenReady(function () { Stepwise.open(); }); });
  document.getElementById("ask").addEventListener("click", function () { whenReady(function () { Stepwise.open(); Stepwise.send("/parallel"); }); });
  document.getElementById("question").addEventListener("click", function () { whenReady(function () { Stepwise.open(); Stepwise.send("/question"); }); });
  ["ready", "status", "question"].forEach(function (name) {
    window.addEventListener("stepwise:" + name, function (e) {
      var d = e.detail || {};
      log(name + (d.status ? ": " + d.status : "") + (d.questions ? ": " + d.questions.join(" / ") : ""));
    });
  });
})();
