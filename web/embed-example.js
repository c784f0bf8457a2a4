// The example page's own script: it drives the embedded assistant through
// the loader's API and logs its events.
(function () {
  // Each visitor has a conversation of their own, kept across their visits
  // in this site's storage: a fixed data-session would put every visitor
  // in the same one. (A site with accounts would use the user's id.)
  var key = "stepwise-example-session";
  var session = null;
  try { session = localStorage.getItem(key); } catch (e) { /* storage refused: a session for this visit */ }
  if (!session) {
    session = "embed-" + (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) + Date.now());
    try { localStorage.setItem(key, session); } catch (e) { /* kept for this visit only */ }
  }
  var loader = document.createElement("script");
  loader.src = "embed.js"; // beside this page, as the app
  loader.async = true;
  loader.dataset.session = session;
  loader.dataset.lang = "en";
  document.body.appendChild(loader);

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
