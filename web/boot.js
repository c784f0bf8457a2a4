/*
 * Stepwise's page before the app runs. The server prerenders the page, so
 * the composer is on screen long before app.wasm has arrived and started;
 * this small script (the site's CSP allows no inline script) makes what a
 * person does there count:
 *
 * - text typed into the box stays, and the app puts it back into its own
 *   composer when it takes over;
 * - Enter (or the send button, enabled here since it now does something)
 *   keeps the message and shows it; the app sends each one once, in order,
 *   as soon as it runs (window.stepwiseBoot.take());
 * - the quiet note the page shows says so.
 *
 * A shell the service worker cached for another language or without this
 * conversation is hidden until the app has rendered, rather than shown
 * wrong.
 *
 * It also keeps, for the page's whole life, the conversation's reading
 * mark (below): a check on every scroll event, cheaper here than a call
 * into the wasm for each; and, for the same reason, it gathers a
 * WebSocket's messages for the app (stepwiseQueue) and posts the replay
 * driver's tasks (stepwiseLoop).
 */
(function () {
  "use strict";
  var root = document.documentElement;

  // The reader's choices in the app's menu (app/prefs.go), read before
  // the page is drawn: the theme, and below the language.
  function saved(key) {
    try { return window.localStorage.getItem(key) || ""; } catch (e) { return ""; }
  }
  var theme = saved("stepwise.theme");
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;

  // The conversation is marked data-reading while the reader is scrolled
  // up from its end. At the end only the anchor after the last item
  // anchors the scroll, so new content is followed; scrolled up, the items
  // anchor it (stepwise.css), so a group that collapses or a chunk that
  // gets its real size above the reader does not move what they read.
  // Scroll events do not bubble, but a capturing listener on the document
  // sees them, for the prerendered conversation and the app's alike.
  document.addEventListener("scroll", function (e) {
    var conv = e.target;
    if (conv.id !== "conversation") return;
    var now = conv.scrollHeight - conv.scrollTop - conv.clientHeight > 48;
    if (now !== conv.hasAttribute("data-reading")) conv.toggleAttribute("data-reading", now);
    conv.stepwiseScrolled = conv.scrollTop > 0;
  }, { capture: true, passive: true });

  // The anchor does not work at the very top: browsers anchor no scroller
  // scrolled to offset 0, so a conversation that starts short (a first
  // answer, a stream replayed on reload) and grows past the screen would
  // keep the reader at its top. The app calls stepwiseFollow() after its
  // renders (app/dom/follow.go): while the conversation is at its top and not
  // being read there, once its content overflows it goes to the end.
  // Until a scroll event has said otherwise, a conversation is at its top;
  // anywhere else the call reads no layout. At the top the layout is read
  // in the next frame, before it is painted, where the browser lays the
  // page out anyway: read in the app's task, it would force style and
  // layout there, and make the stream's first task a long one.
  var followDue = false;
  function following(conv) {
    return conv && !conv.stepwiseScrolled && !conv.hasAttribute("data-reading");
  }
  window.stepwiseFollow = function () {
    if (followDue || !following(document.getElementById("conversation"))) return;
    followDue = true;
    requestAnimationFrame(function () {
      followDue = false;
      var conv = document.getElementById("conversation");
      if (following(conv) && conv.scrollHeight > conv.clientHeight) {
        conv.scrollTop = conv.scrollHeight;
        conv.stepwiseScrolled = conv.scrollTop > 0;
      }
    });
  };

  // stepwiseQueue(socket, wake, withIds) keeps the data of the socket's
  // (a WebSocket's or an EventSource's) message events, with withIds
  // [data, lastEventId] pairs, and calls wake(), from a task of its own,
  // when some wait. A
  // backend that replays its log sends thousands of messages at once; a
  // call into the wasm for each (each applied, and drawn, apart) would take
  // tens of seconds for a long log (app/internal/browser). It returns take(max), which
  // hands over the oldest max messages (all without max) and, if some are
  // left, calls wake again from a later task, so that the page paints and
  // answers between batches; and stop(), after which wake is never called
  // (the app lets go of it).
  window.stepwiseQueue = function (socket, wake, withIds) {
    var queue = [];
    var head = 0; // queue[head:] wait
    var posted = false; // a wake is on its way
    var stopped = false;
    var channel = new MessageChannel();
    function post() {
      if (posted || stopped) return;
      posted = true;
      channel.port2.postMessage(null);
    }
    channel.port1.onmessage = function () {
      posted = false;
      if (!stopped) wake();
    };
    function onMessage(e) {
      if (stopped) return;
      queue.push(withIds ? [e.data, e.lastEventId] : e.data);
      // The wake's task comes after the messages the browser already
      // holds: they are taken together.
      post();
    }
    socket.addEventListener("message", onMessage);
    return {
      take: function (max) {
        var end = max > 0 ? Math.min(queue.length, head + max) : queue.length;
        var batch = queue.slice(head, end);
        head = end;
        if (head === queue.length) {
          queue = [];
          head = 0;
        } else {
          post();
        }
        return batch;
      },
      stop: function () {
        stopped = true;
        queue = [];
        head = 0;
        socket.removeEventListener("message", onMessage);
        channel.port1.close();
      }
    };
  };

  // stepwiseLoop(step) calls step() in a task of its own, again and again
  // while it returns true: the replay driver's max rate (app/backend/replay/player_js.go,
  // ../shared/bench/README.md), each next task posted through a
  // MessageChannel as soon as step returns. Calling in from here, with no
  // arguments, costs the wasm less than being the port's handler.
  window.stepwiseLoop = function (step) {
    var channel = new MessageChannel();
    channel.port1.onmessage = function () {
      if (step()) channel.port2.postMessage(null);
      else channel.port1.close();
    };
    channel.port2.postMessage(null);
  };

  // stepwiseEnterSends(keydown) is the one rule of the message box, for
  // this page's box and the app's (components/composer.go): does this
  // keydown send the message? Enter does, unless
  // - Shift is held (a new line);
  // - an input method is composing: isComposing, or keyCode 229, which
  //   is what Chromium and Safari give the key that commits a composition;
  // - it comes right after a compositionend: Safari ends the composition
  //   first, then sends the Enter that committed it with isComposing
  //   false (5 ms or so apart; a person's next Enter comes far later);
  // - the keyboard is a touch one (a coarse pointer and no fine one):
  //   there Enter is a new line and the Send button sends. Ctrl or Cmd
  //   with Enter sends there too.
  var composedAt = -Infinity;
  document.addEventListener("compositionend", function (e) {
    composedAt = e.timeStamp;
  }, true);
  function touchOnly() {
    return !!window.matchMedia && matchMedia("(pointer: coarse)").matches && !matchMedia("(any-pointer: fine)").matches;
  }
  window.stepwiseEnterSends = function (e) {
    if (e.key !== "Enter" || e.shiftKey || e.altKey) return false;
    if (e.isComposing || e.keyCode === 229) return false;
    if (e.timeStamp - composedAt < 100) return false;
    if (!e.ctrlKey && !e.metaKey && touchOnly()) return false;
    return true;
  };

  // go-app runs the app's event handlers on its own goroutine, after the
  // event has returned when it is busy: an Event.PreventDefault there can
  // come too late (Enter's new line lands in the emptied box; a form's
  // submission reloads the page). The defaults the app always takes over
  // are prevented here, while the event is dispatched.
  document.addEventListener("submit", function (e) {
    if (!e.target.hasAttribute("action")) e.preventDefault();
  }, true);
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (t.id === "composer-input" && window.stepwiseEnterSends(e)) e.preventDefault();
    else if (t.getAttribute && t.getAttribute("role") === "separator" && /^(ArrowLeft|ArrowRight|Home|End)$/.test(e.key)) e.preventDefault();
  }, true);

  if (root.dataset.stepwise === "ready") return; // the app already runs

  var params = new URLSearchParams(location.search);
  // The language the app will use: ?lang=, else the one chosen in its
  // menu, else the browser's, matched as components/i18n.Match does (its
  // tests keep these lists the same).
  var languages = ["vi", "en", "fr", "zh-Hans", "zh-Hant", "ja", "ko", "es", "de", "pt-BR", "it",
    "nl", "pl", "tr", "ru", "uk", "id", "th", "hi", "ar", "he"];
  var aliases = { "zh": "zh-Hans", "zh-cn": "zh-Hans", "zh-sg": "zh-Hans", "zh-my": "zh-Hans",
    "zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-mo": "zh-Hant", "pt": "pt-BR", "iw": "he", "in": "id" };
  function match(tag) {
    var parts = tag.trim().replace(/_/g, "-").toLowerCase().split("-");
    for (var n = parts.length; n > 0; n--) {
      var t = parts.slice(0, n).join("-");
      for (var i = 0; i < languages.length; i++) {
        if (languages[i].toLowerCase() === t) return languages[i];
      }
      if (aliases[t]) return aliases[t];
    }
    return "vi";
  }
  var want = match(params.get("lang") || saved("stepwise.lang") || navigator.language || "");
  if (root.lang !== want) {
    root.dataset.boot = "stale"; // stepwise.css hides the shell until the app runs
  }
  // A conversation may have history: no invitation to start one.
  var empty = document.querySelector("#conversation > .empty");
  if (params.get("session") && empty) empty.remove();

  var box = document.getElementById("composer-input");
  var form = box && box.form;
  if (!form) return;
  var send = form.querySelector('[data-testid="send"]');
  var note = document.querySelector('[data-testid="starting"]');
  var conversation = document.getElementById("conversation");
  var messages = [];
  var focused = document.activeElement === box;
  var taken = false;

  function keep() {
    var text = box.value;
    if (!text.trim()) return;
    messages.push(text);
    box.value = "";
    if (note && note.dataset.queued) note.textContent = note.dataset.queued;
    if (conversation) {
      var e = conversation.querySelector(".empty");
      if (e) e.remove();
      var item = document.createElement("div");
      item.className = "item user boot-pending";
      item.dataset.testid = "boot-pending";
      var bubble = document.createElement("div");
      bubble.className = "bubble";
      bubble.textContent = text;
      item.appendChild(bubble);
      conversation.appendChild(item);
    }
  }
  function onKeyDown(e) {
    if (!window.stepwiseEnterSends(e)) return;
    e.preventDefault();
    keep();
  }
  function onSubmit(e) {
    e.preventDefault();
    keep();
  }
  function onFocus() { focused = true; }
  // The app replaces this page's box with its own; a blur that comes with
  // that (the box leaves the document) is not the person leaving it.
  function onBlur() { setTimeout(function () { if (box.isConnected) focused = false; }); }
  box.addEventListener("keydown", onKeyDown);
  form.addEventListener("submit", onSubmit);
  box.addEventListener("focus", onFocus);
  box.addEventListener("blur", onBlur);
  if (send) send.disabled = false;
  root.dataset.boot = root.dataset.boot || "starting";

  performance.mark("stepwise:boot"); // make bench: the composer takes input from here
  window.stepwiseBoot = {
    // take hands the app what was kept, once, and stops listening. The app
    // has rendered its own page by then: this one's box is gone from the
    // document, but it still holds its text (its blur may never fire).
    take: function () {
      if (taken) return { messages: [], draft: "", focused: false };
      taken = true;
      box.removeEventListener("keydown", onKeyDown);
      form.removeEventListener("submit", onSubmit);
      box.removeEventListener("focus", onFocus);
      box.removeEventListener("blur", onBlur);
      delete root.dataset.boot;
      return { messages: messages.splice(0), draft: box.value, focused: focused };
    }
  };
})();
