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
  // At most RATE notifications and RATE requests (or responses) a second
  // from the app reach the page. A flood of notifications stays here
  // without starving the app's requests; a request over its budget is
  // answered here with an error, so the app never waits for nothing.
  var RATE = 100;
  var notifications = bucket(), requests = bucket();
  var inner = null;

  function isMessage(m) {
    if (!m || typeof m !== "object" || m.jsonrpc !== "2.0") return false;
    if ("method" in m) return typeof m.method === "string" && m.method.length > 0 && m.method.length <= 128;
    return "id" in m && ("result" in m || "error" in m);
  }

  function bucket() { return { tokens: RATE, last: Date.now() }; }

  function take(b) {
    var now = Date.now();
    b.tokens = Math.min(RATE, b.tokens + (now - b.last) * RATE / 1000);
    b.last = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
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
    if (!("id" in m)) {
      if (take(notifications)) window.parent.postMessage(m, host);
      return;
    }
    if (take(requests)) { window.parent.postMessage(m, host); return; }
    if ("method" in m && (typeof m.id === "string" || typeof m.id === "number")) {
      inner.contentWindow.postMessage({ jsonrpc: "2.0", id: m.id, error: { code: -32000, message: "Too many requests" } }, "*");
    }
  });

  window.parent.postMessage({ jsonrpc: "2.0", method: READY, params: {} }, host);
})();
