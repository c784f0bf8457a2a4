/*
 * Stepwise embed loader. Add to any page:
 *
 *   <script src="https://stepwise.example/web/embed.js"
 *           data-stepwise-url="https://stepwise.example"
 *           data-session="optional-session-id"
 *           data-mode="launcher"            (or "inline" with data-target="#chat")
 *           data-lang="en" async></script>
 *
 * It adds a launcher button and a panel holding the app in an iframe (or the
 * iframe alone inside data-target), and a small API:
 *
 *   Stepwise.open(), Stepwise.close(), Stepwise.toggle()
 *   Stepwise.send(text)           sends a message as the user
 *   Stepwise.stop()               stops the agent
 *   Stepwise.on(event, fn)        "ready", "question", "status"
 *
 * The same events are dispatched on window as "stepwise:ready",
 * "stepwise:question" (detail: {approval_key, questions}) and
 * "stepwise:status" (detail: {status}). The host site must be allowed to
 * frame the app: run the server with -frame-ancestors "https://your.site".
 */
(function () {
  "use strict";
  if (window.Stepwise && window.Stepwise.version) return;
  var script = document.currentScript;
  var data = (script && script.dataset) || {};
  // The app is where data-stepwise-url says, else where this script came from.
  var appURL = new URL(data.stepwiseUrl || (script && script.src) || location.href, location.href);
  var origin = appURL.origin;
  var labels = {
    vi: ["Mở trợ lý", "Đóng trợ lý"],
    en: ["Open the assistant", "Close the assistant"],
    fr: ["Ouvrir l'assistant", "Fermer l'assistant"]
  };
  var lang = (data.lang || navigator.language || "vi").slice(0, 2).toLowerCase();
  var label = labels[lang] || labels.vi;

  var src = new URL("/", origin);
  if (data.session) src.searchParams.set("session", data.session);
  if (data.lang) src.searchParams.set("lang", data.lang);
  src.searchParams.set("parent_origin", location.origin);

  var frame = document.createElement("iframe");
  frame.src = src.href;
  frame.title = "Stepwise";
  frame.setAttribute("allow", "clipboard-write");
  frame.style.cssText = "border:0;width:100%;height:100%;display:block;background:transparent";

  var listeners = {};
  var ready = false;
  var queue = [];
  var panel = null;
  var button = null;

  function post(msg) {
    if (!ready) { queue.push(msg); return; }
    frame.contentWindow.postMessage(msg, origin);
  }
  function emit(name, detail) {
    (listeners[name] || []).forEach(function (fn) { try { fn(detail); } catch (e) { console.error(e); } });
    window.dispatchEvent(new CustomEvent("stepwise:" + name, { detail: detail }));
  }
  window.addEventListener("message", function (e) {
    if (e.origin !== origin || e.source !== frame.contentWindow || !e.data || typeof e.data.type !== "string") return;
    var type = e.data.type.replace(/^stepwise:/, "");
    if (type === "ready") {
      ready = true;
      queue.splice(0).forEach(post);
    }
    if (type === "question") setOpen(true);
    emit(type, e.data);
  });

  function setOpen(open) {
    if (!panel) return;
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    button.setAttribute("aria-label", open ? label[1] : label[0]);
    button.textContent = open ? "×" : "";
    if (!open) button.appendChild(icon());
  }
  function icon() {
    var img = document.createElement("img");
    img.src = new URL("/web/logo.svg", origin).href;
    img.alt = "";
    img.width = 32; img.height = 32;
    img.style.cssText = "display:block;border-radius:8px";
    return img;
  }

  function mount() {
    if (data.mode === "inline") {
      var target = document.querySelector(data.target || "");
      if (!target) { console.error("Stepwise: no element matches data-target", data.target); return; }
      target.appendChild(frame);
      return;
    }
    panel = document.createElement("div");
    panel.id = "stepwise-panel";
    panel.hidden = true;
    panel.style.cssText = "position:fixed;right:20px;bottom:88px;width:min(420px,calc(100vw - 40px));height:min(640px,calc(100vh - 120px));" +
      "border-radius:16px;overflow:hidden;box-shadow:0 12px 40px rgba(0,0,0,.25);z-index:2147483646;background:#fff";
    panel.appendChild(frame);
    button = document.createElement("button");
    button.type = "button";
    button.id = "stepwise-launcher";
    button.setAttribute("aria-controls", panel.id);
    button.style.cssText = "position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%;border:0;padding:12px;" +
      "background:#4f46e5;color:#fff;font:28px/1 system-ui,sans-serif;cursor:pointer;box-shadow:0 6px 20px rgba(79,70,229,.45);z-index:2147483647";
    button.addEventListener("click", function () { setOpen(panel.hidden); });
    document.body.appendChild(panel);
    document.body.appendChild(button);
    setOpen(false);
  }

  window.Stepwise = {
    version: 1,
    open: function () { setOpen(true); },
    close: function () { setOpen(false); },
    toggle: function () { if (panel) setOpen(panel.hidden); },
    send: function (text) { post({ type: "stepwise:send", text: String(text) }); },
    stop: function () { post({ type: "stepwise:stop" }); },
    on: function (name, fn) { (listeners[name] = listeners[name] || []).push(fn); }
  };
  if (document.body) mount(); else document.addEventListener("DOMContentLoaded", mount);
})();
