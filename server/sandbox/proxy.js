// The MCP Apps sandbox proxy (SEP-1865, "Sandbox proxy"): this page runs
// on the sandbox origin, inside the Stepwise page, and holds the app in an
// inner frame with an opaque origin. It relays JSON-RPC messages between
// the two and decides nothing: the Stepwise page does (docs/mcp-apps.md).
(function () {
  "use strict";
  var host = new URLSearchParams(location.search).get("host");
  if (!host || window.parent === window) return;

  var READY = "ui/notifications/sandbox-proxy-ready";
  var RESOURCE = "ui/notifications/sandbox-resource-ready";
  var RESERVED = "ui/notifications/sandbox-";
  // The inner frame may have only these; the page asks for them.
  var TOKENS = { "allow-scripts": true, "allow-forms": true };
  var FEATURES = { camera: "camera", microphone: "microphone", geolocation: "geolocation", clipboardWrite: "clipboard-write" };
  // At most RATE messages a second from the app reach the page; the rest
  // are dropped (a flood stays here).
  var RATE = 100;
  var tokens = RATE, last = Date.now();
  var inner = null;

  function isMessage(m) {
    if (!m || typeof m !== "object" || m.jsonrpc !== "2.0") return false;
    if ("method" in m) return typeof m.method === "string" && m.method.length > 0 && m.method.length <= 128;
    return "id" in m && ("result" in m || "error" in m);
  }

  function take() {
    var now = Date.now();
    tokens = Math.min(RATE, tokens + (now - last) * RATE / 1000);
    last = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  }

  function load(p) {
    if (inner || !p || typeof p.html !== "string") return;
    inner = document.createElement("iframe");
    var asked = typeof p.sandbox === "string" ? p.sandbox.split(/\s+/) : ["allow-scripts"];
    var granted = asked.filter(function (t) { return TOKENS[t] === true; });
    inner.setAttribute("sandbox", granted.join(" "));
    var allow = [];
    if (p.permissions && typeof p.permissions === "object") {
      for (var k in FEATURES) if (Object.prototype.hasOwnProperty.call(p.permissions, k) && p.permissions[k]) allow.push(FEATURES[k]);
    }
    if (allow.length) inner.setAttribute("allow", allow.join("; "));
    inner.setAttribute("title", typeof p.title === "string" ? p.title : "MCP App");
    inner.srcdoc = p.html;
    (document.body || document.documentElement).appendChild(inner);
  }

  window.addEventListener("message", function (e) {
    var m = e.data;
    if (e.source === window.parent) {
      if (e.origin !== host || !isMessage(m)) return;
      if (m.method === RESOURCE) { load(m.params); return; }
      if (typeof m.method === "string" && m.method.indexOf(RESERVED) === 0) return;
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(m, "*");
      return;
    }
    if (!inner || e.source !== inner.contentWindow) return;
    if (!isMessage(m) || (typeof m.method === "string" && m.method.indexOf(RESERVED) === 0)) return;
    if (!take()) return;
    window.parent.postMessage(m, host);
  });

  window.parent.postMessage({ jsonrpc: "2.0", method: READY, params: {} }, host);
})();
