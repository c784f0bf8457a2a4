// Draws the Mermaid source in this page's URL fragment (frame.html). Its
// height and state go to the page (web/mermaid-host.js sizes the frame):
// "drawn", "error" (Mermaid could not read the source: it shows with the
// error) or "unavailable" (mermaid.min.js is not installed: the source
// shows as code).
(function () {
  "use strict";
  var src = "";
  try { src = decodeURIComponent(location.hash.slice(1)); } catch (e) { src = ""; }
  var out = document.getElementById("diagram");
  var err = document.getElementById("error");
  var pre = document.getElementById("source");
  var dark = matchMedia("(prefers-color-scheme: dark)");
  var state = "";
  var seq = 0;
  var chosen = ""; // the theme the page says the reader chose, "" for the system's

  // Mermaid sizes a diagram to its box, however small its labels get.
  // Here it keeps its own size when it fits, shrinks to the box down to
  // MIN_SCALE (its 16 px labels stay 12 px), and past that scrolls
  // sideways: a box that scrolls is reachable by keyboard.
  var MIN_SCALE = 0.75;
  function fit() {
    var svg = out.querySelector("svg");
    var box = svg && svg.viewBox && svg.viewBox.baseVal;
    if (!box || !box.width) return;
    var room = out.clientWidth - 16; // #diagram's padding
    var width = Math.min(box.width, Math.max(room, box.width * MIN_SCALE));
    svg.style.maxWidth = "none";
    svg.style.width = width + "px";
    svg.style.height = box.height * width / box.width + "px";
    if (width > room + 1) out.tabIndex = 0;
    else out.removeAttribute("tabindex");
  }
  function report() {
    fit();
    parent.postMessage({ stepwiseMermaid: Math.ceil(document.body.getBoundingClientRect().height), state: state }, "*");
  }
  function source(s, message) {
    state = s;
    out.textContent = "";
    err.textContent = message || "";
    err.hidden = !message;
    pre.textContent = src;
    pre.hidden = false;
    report();
  }
  function draw() {
    var isDark = chosen ? chosen === "dark" : dark.matches;
    document.documentElement.style.colorScheme = isDark ? "dark" : "light";
    document.body.className = isDark ? "dark" : "";
    if (!window.mermaid) {
      source("unavailable", "");
      return;
    }
    window.mermaid.initialize({
      startOnLoad: false,
      securityLevel: "strict",
      theme: isDark ? "dark" : "default",
      fontFamily: "system-ui, sans-serif"
    });
    var id = "diagram-" + (++seq);
    window.mermaid.render(id, src).then(function (r) {
      out.innerHTML = r.svg; // Mermaid's own sanitised SVG, in this sandbox
      err.hidden = true;
      pre.hidden = true;
      state = "drawn";
      report();
    }, function (e) {
      var stray = document.getElementById("d" + id);
      if (stray) { stray.remove(); }
      source("error", String((e && e.message) || e).split("\n")[0]);
    });
  }
  dark.addEventListener("change", draw);
  addEventListener("message", function (e) {
    var t = e.data && e.data.stepwiseTheme;
    if (e.source !== parent || typeof t !== "string" || t === chosen) return;
    chosen = t === "light" || t === "dark" ? t : "";
    draw();
  });
  addEventListener("resize", report);
  draw();
})();
