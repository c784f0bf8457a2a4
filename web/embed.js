/*
 * Stepwise embed loader. Add to any page:
 *
 *   <script src="https://stepwise.example/web/embed.js"
 *           data-stepwise-url="https://stepwise.example"
 *           data-session="optional-session-id"
 *           data-mode="launcher"            (or "inline" with data-target="#chat")
 *           data-load="idle"                (or "open", "eager")
 *           data-lang="en"
 *           data-accent="#0ea5e9"           (the brand: accent colour,
 *           data-logo="https://…/logo.svg"   logo, name and the empty
 *           data-name="Acme assistant"       state's suggestions, "|"
 *           data-suggestions="Track an order|Return an item"   between them)
 *           async></script>
 *
 * It adds a launcher button and a panel holding the app in an iframe (or the
 * iframe alone inside data-target), and a small API:
 *
 *   Stepwise.open(), Stepwise.close(), Stepwise.toggle()
 *   Stepwise.send(text)           sends a message as the user
 *   Stepwise.stop()               stops the agent
 *   Stepwise.on(event, fn)        "ready", "question", "status"
 *
 * The app (its iframe, megabytes on a first visit) loads only when needed,
 * so it never competes with the host page's own loading:
 *   data-load="idle"   (default) once the page has loaded and the browser is
 *                      idle, or on first open, whichever comes first;
 *   data-load="open"   on first open (inline: when the target scrolls into
 *                      view), or on the first send()/stop();
 *   data-load="eager"  at once.
 * Until then the launcher works (opening it shows a light placeholder while
 * the app loads), and send()/stop() are kept and delivered once, in order,
 * when the app is ready; a send() also starts loading it.
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
  // The app is where data-stepwise-url says, else where this script came
  // from (its folder's parent: the app's root, a base path such as /chat/
  // included).
  var appRoot = data.stepwiseUrl ? new URL(data.stepwiseUrl, location.href) :
    new URL("..", (script && script.src) || location.href);
  appRoot = new URL(appRoot.pathname.replace(/\/?$/, "/"), appRoot);
  var origin = appRoot.origin;
  // This loader runs before (and without) the app, so its few words cannot
  // come from the app's catalogs (components/i18n): they live here, in the
  // same languages.
  var catalog = {
    vi: { open: "Mở trợ lý", close: "Đóng trợ lý", loading: "Đang mở trợ lý…" },
    en: { open: "Open the assistant", close: "Close the assistant", loading: "Opening the assistant…" },
    fr: { open: "Ouvrir l'assistant", close: "Fermer l'assistant", loading: "Ouverture de l'assistant…" },
    "zh-hans": { open: "打开助手", close: "关闭助手", loading: "正在打开助手…" },
    "zh-hant": { open: "開啟助理", close: "關閉助理", loading: "正在開啟助理…" },
    ja: { open: "アシスタントを開く", close: "アシスタントを閉じる", loading: "アシスタントを開いています…" },
    ko: { open: "어시스턴트 열기", close: "어시스턴트 닫기", loading: "어시스턴트를 여는 중…" },
    es: { open: "Abrir el asistente", close: "Cerrar el asistente", loading: "Abriendo el asistente…" },
    de: { open: "Assistenten öffnen", close: "Assistenten schließen", loading: "Assistent wird geöffnet…" },
    pt: { open: "Abrir o assistente", close: "Fechar o assistente", loading: "Abrindo o assistente…" },
    it: { open: "Apri l'assistente", close: "Chiudi l'assistente", loading: "Apertura dell'assistente…" },
    nl: { open: "Assistent openen", close: "Assistent sluiten", loading: "Assistent wordt geopend…" },
    pl: { open: "Otwórz asystenta", close: "Zamknij asystenta", loading: "Otwieranie asystenta…" },
    tr: { open: "Asistanı aç", close: "Asistanı kapat", loading: "Asistan açılıyor…" },
    ru: { open: "Открыть ассистента", close: "Закрыть ассистента", loading: "Открываем ассистента…" },
    uk: { open: "Відкрити асистента", close: "Закрити асистента", loading: "Відкриваємо асистента…" },
    id: { open: "Buka asisten", close: "Tutup asisten", loading: "Membuka asisten…" },
    th: { open: "เปิดผู้ช่วย", close: "ปิดผู้ช่วย", loading: "กำลังเปิดผู้ช่วย…" },
    hi: { open: "सहायक खोलें", close: "सहायक बंद करें", loading: "सहायक खुल रहा है…" },
    ar: { open: "فتح المساعد", close: "إغلاق المساعد", loading: "جارٍ فتح المساعد…" },
    he: { open: "פתיחת העוזר", close: "סגירת העוזר", loading: "פותח את העוזר…" }
  };
  var tag = (data.lang || navigator.language || "vi").toLowerCase();
  var base = tag.split("-")[0];
  var catalogKey = /^zh-(tw|hk|mo|hant)/.test(tag) ? "zh-hant" : base === "zh" ? "zh-hans" : base === "iw" ? "he" : base;
  var words = catalog[catalogKey] || catalog.vi;
  // The host page's direction: the launcher sits at its end.
  var side = (document.documentElement.dir || "").toLowerCase() === "rtl" ? "left" : "right";
  // The brand's accent (a hex colour only: it goes into a style), and the
  // text on it, black or white, whichever reads better.
  var accent = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(data.accent || "") ? data.accent : "#4f46e5";
  function textOn(hex) {
    var h = hex.slice(1);
    if (h.length === 3) h = h.replace(/./g, "$&$&");
    var l = [0, 2, 4].map(function (i) {
      var c = parseInt(h.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    var y = 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
    return 1.05 / (y + 0.05) >= (y + 0.05) / 0.05 ? "#fff" : "#000";
  }
  var loadWhen = data.load === "open" || data.load === "eager" ? data.load : "idle";
  var dark = window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches;

  var frame = null;      // the app's iframe, once loading
  var ready = false;     // the app said it is ready
  var queue = [];        // commands waiting for the app
  var listeners = {};
  var container = null;  // the panel, or data-target
  var panel = null;
  var button = null;
  var placeholder = null;
  var openAtMount = false;

  function load() {
    if (frame || !container) return;
    var src = new URL(appRoot.pathname, origin);
    if (data.session) src.searchParams.set("session", data.session);
    if (data.lang) src.searchParams.set("lang", data.lang);
    // The brand (docs/brand.md): the app checks each value again.
    if (data.accent) src.searchParams.set("accent", data.accent);
    if (data.logo) src.searchParams.set("logo", new URL(data.logo, location.href).href);
    if (data.name) src.searchParams.set("agent", data.name);
    (data.suggestions || "").split("|").forEach(function (s) {
      if (s.trim()) src.searchParams.append("suggestion", s.trim());
    });
    src.searchParams.set("parent_origin", location.origin);
    frame = document.createElement("iframe");
    frame.title = "Stepwise";
    frame.setAttribute("allow", "clipboard-write");
    frame.style.cssText = "border:0;width:100%;height:100%;display:block;background:transparent";
    // The frame's own first screen (the app starting) may take the
    // placeholder's place once it has loaded.
    frame.addEventListener("load", hidePlaceholder);
    frame.src = src.href;
    container.appendChild(frame);
  }

  function post(msg) {
    if (!ready) {
      queue.push(msg);
      load();
      return;
    }
    frame.contentWindow.postMessage(msg, origin);
  }
  function emit(name, detail) {
    (listeners[name] || []).forEach(function (fn) { try { fn(detail); } catch (e) { console.error(e); } });
    window.dispatchEvent(new CustomEvent("stepwise:" + name, { detail: detail }));
  }
  window.addEventListener("message", function (e) {
    if (!frame || e.origin !== origin || e.source !== frame.contentWindow || !e.data || typeof e.data.type !== "string") return;
    var type = e.data.type.replace(/^stepwise:/, "");
    if (type === "ready") {
      ready = true;
      hidePlaceholder();
      queue.splice(0).forEach(post);
    }
    if (type === "question") setOpen(true);
    emit(type, e.data);
  });

  // A light stand-in while the app loads: the logo and a polite line of
  // text, in the app's colours for the system theme.
  function showPlaceholder() {
    if (placeholder || ready || !container) return;
    placeholder = document.createElement("div");
    placeholder.setAttribute("role", "status");
    placeholder.style.cssText = "position:absolute;inset:0;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:14px;" +
      "font:15px/1.4 system-ui,sans-serif;z-index:1;background:" + (dark ? "#0f1020;color:#a3a7c0" : "#f7f7fb;color:#656a80");
    var logo = icon(48);
    var text = document.createElement("span");
    text.textContent = words.loading;
    placeholder.appendChild(logo);
    placeholder.appendChild(text);
    if (getComputedStyle(container).position === "static") container.style.position = "relative";
    container.appendChild(placeholder);
    var calm = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (logo.animate && !calm) logo.animate([{ opacity: 1 }, { opacity: 0.45 }, { opacity: 1 }], { duration: 1600, iterations: Infinity });
  }
  function hidePlaceholder() {
    if (placeholder) placeholder.remove();
    placeholder = null;
  }

  function setOpen(open) {
    if (!panel) {
      if (!container) openAtMount = open; // called before the page's body exists
      return;
    }
    if (open) {
      showPlaceholder();
      load();
    }
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    button.setAttribute("aria-label", open ? words.close : words.open);
    button.textContent = open ? "×" : "";
    if (!open) button.appendChild(icon(32));
  }
  function icon(size) {
    var img = document.createElement("img");
    img.src = new URL("web/logo.svg", appRoot).href;
    img.alt = "";
    img.width = size; img.height = size;
    img.style.cssText = "display:block;border-radius:" + size / 4 + "px";
    return img;
  }

  function whenIdle(fn) {
    var idle = function () { (window.requestIdleCallback || function (cb) { setTimeout(cb, 200); })(fn, { timeout: 5000 }); };
    if (document.readyState === "complete") idle(); else window.addEventListener("load", idle, { once: true });
  }

  function mount() {
    if (data.mode === "inline") {
      container = document.querySelector(data.target || "");
      if (!container) { console.error("Stepwise: no element matches data-target", data.target); return; }
      showPlaceholder();
      if (loadWhen === "open" && window.IntersectionObserver) {
        var seen = new IntersectionObserver(function (entries) {
          if (entries.some(function (e) { return e.isIntersecting; })) { seen.disconnect(); load(); }
        });
        seen.observe(container);
      }
    } else {
      panel = container = document.createElement("div");
      panel.id = "stepwise-panel";
      panel.hidden = true;
      panel.style.cssText = "position:fixed;" + side + ":20px;bottom:88px;width:min(420px,calc(100vw - 40px));height:min(640px,calc(100vh - 120px));" +
        "border-radius:16px;overflow:hidden;box-shadow:0 12px 40px rgba(0,0,0,.25);z-index:2147483646;background:" + (dark ? "#0f1020" : "#fff");
      button = document.createElement("button");
      button.type = "button";
      button.id = "stepwise-launcher";
      button.setAttribute("aria-controls", panel.id);
      button.style.cssText = "position:fixed;" + side + ":20px;bottom:20px;width:56px;height:56px;border-radius:50%;border:0;padding:12px;" +
        "background:" + accent + ";color:" + textOn(accent) + ";font:28px/1 system-ui,sans-serif;cursor:pointer;box-shadow:0 6px 20px rgba(0,0,0,.25);z-index:2147483647";
      button.addEventListener("click", function () { setOpen(panel.hidden); });
      document.body.appendChild(panel);
      document.body.appendChild(button);
      setOpen(openAtMount);
    }
    if (loadWhen === "eager" || queue.length) load();
    else if (loadWhen === "idle") whenIdle(load);
  }

  window.Stepwise = {
    version: 2,
    open: function () { setOpen(true); },
    close: function () { setOpen(false); },
    toggle: function () { if (panel) setOpen(panel.hidden); },
    send: function (text) { post({ type: "stepwise:send", text: String(text) }); },
    stop: function () { post({ type: "stepwise:stop" }); },
    on: function (name, fn) { (listeners[name] = listeners[name] || []).push(fn); }
  };
  // The launcher goes in as soon as there is a body; an inline target may
  // come later in the page than this script.
  if (document.body && (data.mode !== "inline" || document.readyState !== "loading")) mount();
  else document.addEventListener("DOMContentLoaded", mount);
})();
