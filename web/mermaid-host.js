// Sizes the Mermaid frames (components/mermaid.go) to their diagrams. A
// frame says its height and state (web/mermaid/frame.js); only a message
// from one of these frames' own windows is heard, and the height is
// bounded.
addEventListener("message", function (e) {
  var m = e.data;
  if (!m || typeof m.stepwiseMermaid !== "number") return;
  var frames = document.querySelectorAll("iframe.mermaid-frame");
  for (var i = 0; i < frames.length; i++) {
    if (frames[i].contentWindow === e.source) {
      frames[i].style.height = Math.min(Math.max(Math.round(m.stepwiseMermaid), 40), 3000) + "px";
      frames[i].dataset.state = /^(drawn|error|unavailable)$/.test(m.state) ? m.state : "";
      return;
    }
  }
});
