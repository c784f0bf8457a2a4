// The Stepwise page's side of its MCP Apps' frames (app/mcphost_js.go
// drives it; docs/mcp-apps.md). It frames the sandbox proxy, and hands Go
// only the messages that come from a proxy frame it made, from that
// frame's origin, at a bounded rate: what else reaches the page (an app
// posting to the top window itself, a flood) stops here, at a cost of a
// comparison, without a call into the wasm. Go decides everything else.
(function () {
  "use strict";
  // Notifications and requests a second from one frame, each: a flood of
  // notifications does not starve the app's requests; a request over its
  // budget gets an error rather than no answer.
  var RATE = 200;
  var MAX = 1 << 20; // characters of one message, as JSON
  var frames = {};
  var next = 0;
  var deliver = null;

  // Stepwise's look for apps (the spec's standard variables).
  var STYLE = {
    "--color-background-primary": "light-dark(#ffffff, #171829)",
    "--color-background-secondary": "light-dark(#f0f0f6, #1f2035)",
    "--color-text-primary": "light-dark(#1b1c2a, #e7e8f3)",
    "--color-text-secondary": "light-dark(#656a80, #a3a7c0)",
    "--color-border-primary": "light-dark(#e3e4ee, #2a2c45)",
    "--color-ring-primary": "light-dark(#4f46e5, #8b85ff)",
    "--font-sans": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    "--font-mono": "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace",
    "--border-radius-md": "8px"
  };

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
      // The theme the reader chose in the page's menu.
      if (window.MutationObserver) new MutationObserver(function () { onTheme(); })
        .observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
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
      var now = Date.now();
      frames[id] = { el: f, origin: new URL(src, location.href).origin,
        notifications: { tokens: RATE, last: now }, requests: { tokens: RATE, last: now } };
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
    popovers: function () { return typeof HTMLElement !== "undefined" && "showPopover" in HTMLElement.prototype; },
    // context: an app's host context (JSON), the host's facts (JSON: mode,
    // modes, locale, tool) completed with the page's.
    context: function (parentID, factsJSON) {
      var c = JSON.parse(factsJSON);
      var parent = document.getElementById(parentID);
      var vw = window.innerWidth, vh = window.innerHeight;
      var touch = media("(pointer: coarse)").matches, hover = media("(hover: hover)").matches;
      var chosen = document.documentElement.getAttribute("data-theme");
      c.theme = chosen === "dark" || chosen === "light" ? chosen : media("(prefers-color-scheme: dark)").matches ? "dark" : "light";
      c.platform = touch && !hover ? "mobile" : "web";
      c.deviceCapabilities = { touch: touch, hover: hover };
      c.userAgent = "Stepwise";
      try { c.timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) { /* none */ }
      var i = c.displayMode === "fullscreen" ? insets() : [0, 0, 0, 0];
      c.safeAreaInsets = { top: i[0], right: i[1], bottom: i[2], left: i[3] };
      if (c.displayMode === "fullscreen") c.containerDimensions = { width: vw, height: Math.max(vh - 44, 100) };
      else if (c.displayMode === "pip") c.containerDimensions = { width: Math.min(360, vw - 24), maxHeight: 320 };
      else c.containerDimensions = { width: parent ? Math.round(parent.clientWidth) : vw, maxHeight: 720 };
      c.styles = { variables: STYLE };
      return JSON.stringify(c);
    }
  };

  function take(b) {
    var now = Date.now();
    b.tokens = Math.min(RATE, b.tokens + (now - b.last) * RATE / 1000);
    b.last = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  window.addEventListener("message", function (e) {
    if (!deliver || !e.source) return;
    for (var id in frames) {
      var f = frames[id];
      if (e.source !== f.el.contentWindow) continue;
      if (e.origin !== f.origin) return;
      var m = e.data, request = m !== null && typeof m === "object" && "id" in m;
      if (!take(request ? f.requests : f.notifications)) {
        if (request && typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number")) {
          f.el.contentWindow.postMessage({ jsonrpc: "2.0", id: m.id, error: { code: -32000, message: "Too many requests" } }, f.origin);
        }
        return;
      }
      var s;
      try { s = JSON.stringify(e.data); } catch (x) { return; }
      if (typeof s !== "string" || s.length > MAX) return;
      deliver(+id, s);
      return;
    }
  });
})();
