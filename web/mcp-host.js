// The Stepwise page's side of its MCP Apps' frames (app/mcphost_js.go
// drives it; docs/mcp-apps.md). It frames the sandbox proxy, and hands Go
// only the messages that come from a proxy frame it made, from that
// frame's origin, at a bounded rate: what else reaches the page (an app
// posting to the top window itself, a flood) stops here, at a cost of a
// comparison, without a call into the wasm. Go decides everything else.
(function () {
  "use strict";
  var RATE = 200; // messages a second from one frame
  var MAX = 1 << 20; // characters of one message, as JSON
  var frames = {};
  var next = 0;
  var deliver = null;

  function media(q) { return window.matchMedia ? window.matchMedia(q) : { matches: false }; }

  function insets() {
    var probe = document.createElement("div");
    probe.style.cssText = "position:fixed;visibility:hidden;pointer-events:none;" +
      "padding:env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left)";
    document.body.appendChild(probe);
    var cs = getComputedStyle(probe);
    var out = [cs.paddingTop, cs.paddingRight, cs.paddingBottom, cs.paddingLeft].map(function (v) { return Math.round(parseFloat(v) || 0); });
    probe.remove();
    return out;
  }

  window.stepwiseAppFrames = {
    // start: deliver(handle, json) gets each message; onTheme() each change
    // of the page's color scheme.
    start: function (onMessage, onTheme) {
      deliver = onMessage;
      var dark = media("(prefers-color-scheme: dark)");
      if (dark.addEventListener) dark.addEventListener("change", function () { onTheme(); });
    },
    add: function (parentID, src, allow, title) {
      var parent = document.getElementById(parentID);
      if (!parent) return 0;
      var f = document.createElement("iframe");
      // The spec's outer frame: scripts and its own origin (the proxy
      // origin, not the page's); forms so that the app's may be allowed.
      f.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
      if (allow) f.setAttribute("allow", allow);
      f.setAttribute("title", title);
      f.setAttribute("referrerpolicy", "no-referrer");
      f.className = "mcp-app-iframe";
      f.src = src;
      parent.appendChild(f);
      var id = ++next;
      frames[id] = { el: f, origin: new URL(src, location.href).origin, tokens: RATE, last: Date.now() };
      return id;
    },
    send: function (id, json) {
      var f = frames[id];
      if (!f || !f.el.contentWindow) return;
      f.el.contentWindow.postMessage(JSON.parse(json), f.origin);
    },
    remove: function (id) {
      var f = frames[id];
      if (!f) return;
      delete frames[id];
      f.el.remove();
    },
    popover: function (sectionID, shown) {
      var s = document.getElementById(sectionID);
      if (!s || !s.showPopover) return;
      try {
        if (shown) { s.showPopover(); var b = s.querySelector(".mcp-app-mode"); if (b) b.focus(); }
        else s.hidePopover();
      } catch (e) { /* already in that state */ }
    },
    open: function (url) { window.open(url, "_blank", "noopener,noreferrer"); },
    env: function (parentID) {
      var parent = document.getElementById(parentID);
      var i = insets();
      var tz = "";
      try { tz = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { /* none */ }
      return {
        dark: media("(prefers-color-scheme: dark)").matches,
        width: parent ? Math.round(parent.clientWidth) : 0,
        vw: window.innerWidth, vh: window.innerHeight,
        touch: media("(pointer: coarse)").matches,
        hover: media("(hover: hover)").matches,
        tz: tz, top: i[0], right: i[1], bottom: i[2], left: i[3],
        origin: location.origin,
        popover: typeof HTMLElement !== "undefined" && "showPopover" in HTMLElement.prototype
      };
    }
  };

  window.addEventListener("message", function (e) {
    if (!deliver || !e.source) return;
    for (var id in frames) {
      var f = frames[id];
      if (e.source !== f.el.contentWindow) continue;
      if (e.origin !== f.origin) return;
      var now = Date.now();
      f.tokens = Math.min(RATE, f.tokens + (now - f.last) * RATE / 1000);
      f.last = now;
      if (f.tokens < 1) return;
      f.tokens -= 1;
      var s;
      try { s = JSON.stringify(e.data); } catch (x) { return; }
      if (typeof s !== "string" || s.length > MAX) return;
      deliver(+id, s);
      return;
    }
  });
})();
