// Sizes the Mermaid frames (components/mermaid.go) to their diagrams and
// tells them the theme the reader chose. A frame says its height and state
// (web/mermaid/frame.js); only a message from one of these frames' own
// windows is heard, and the height is bounded. The frames cannot read the
// page (they are sandboxed), so the theme of <html data-theme> is sent to
// them: "light", "dark", or "" to follow the system.
(function () {
  "use strict";
  function theme() {
    var t = document.documentElement.dataset.theme;
    return t === "light" || t === "dark" ? t : "";
  }
  function frames() { return document.querySelectorAll("iframe.mermaid-frame"); }
  addEventListener("message", function (e) {
    var m = e.data;
    if (!m || typeof m.stepwiseMermaid !== "number") return;
    var all = frames();
    for (var i = 0; i < all.length; i++) {
      if (all[i].contentWindow === e.source) {
        all[i].style.height = Math.min(Math.max(Math.round(m.stepwiseMermaid), 40), 3000) + "px";
        all[i].dataset.state = /^(drawn|error|unavailable)$/.test(m.state) ? m.state : "";
        e.source.postMessage({ stepwiseTheme: theme() }, "*");
        return;
      }
    }
  });
  new MutationObserver(function () {
    var all = frames(), t = theme();
    for (var i = 0; i < all.length; i++) {
      if (all[i].contentWindow) all[i].contentWindow.postMessage({ stepwiseTheme: t }, "*");
    }
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
})();
