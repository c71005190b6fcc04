/* The phone's outbox for the table pages: every submission (a result, a confirmation, a
   card-by-card or pasted record, a referee call) is first kept in IndexedDB with its own
   Idempotency-Key, then sent, in order, as soon as the network answers: at once, when the
   browser comes back online, every 20 s, and at the next page load (after a reload, a closed
   tab or a phone that slept). The server acts once per key (tournaments/idempotency.py), so an
   item sent again after a lost answer is not stored twice. An item leaves the outbox only when
   the server has answered it: stored (its sentence is shown) or refused (the reason is shown).
   Nothing is shown as stored before that. Also registers the service worker that keeps the pages.
   Vanilla JS, no build step. */
(function () {
  "use strict";

  var DB_NAME = "botifarra-outbox";
  var QUEUE = "queue";
  var LOG = "log";
  var RECENT_MS = 30 * 60 * 1000;
  var PAGE = Math.random().toString(36).slice(2);
  var waiters = {};  // item key -> resolve, for submissions made on this page
  var flushing = null;

  var TEXT = {};
  try { TEXT = JSON.parse(document.getElementById("outbox-text").textContent); } catch (e) { TEXT = {}; }
  function t(key) { return TEXT[key] || key; }
  function counted(kind, n) {
    var forms = (TEXT.waiting || {})[kind] || ["%(n)s", "%(n)s"];
    return (n === 1 ? forms[0] : forms[1]).replace("%(n)s", String(n));
  }

  /* ---- IndexedDB ---- */
  var dbPromise = null;
  function db() {
    if (dbPromise) { return dbPromise; }
    dbPromise = new Promise(function (resolve, reject) {
      if (!window.indexedDB) { reject(new Error("no IndexedDB")); return; }
      var req = window.indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = function () {
        var d = req.result;
        if (!d.objectStoreNames.contains(QUEUE)) { d.createObjectStore(QUEUE, {keyPath: "seq", autoIncrement: true}); }
        if (!d.objectStoreNames.contains(LOG)) { d.createObjectStore(LOG, {keyPath: "id", autoIncrement: true}); }
      };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
    return dbPromise;
  }
  function run(store, mode, work) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var tx = d.transaction(store, mode);
        var out = work(tx.objectStore(store));
        tx.oncomplete = function () { resolve(out && "result" in out ? out.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }
  function all(store) { return run(store, "readonly", function (s) { return s.getAll(); }); }
  function put(store, value) { return run(store, "readwrite", function (s) { return s.put(value); }); }
  function remove(store, key) { return run(store, "readwrite", function (s) { return s.delete(key); }); }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) { return window.crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function csrfToken() {
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (m) { return decodeURIComponent(m[1]); }
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  /* ---- sending ---- */
  function reasonOf(data) {
    if (!data) { return ""; }
    if (data.error) { return data.error; }
    var parts = [];
    Object.keys(data.errors || {}).forEach(function (k) { parts = parts.concat(data.errors[k]); });
    (data.problems || []).forEach(function (p) { parts.push(p.message); });
    return parts.join(" ");
  }

  var WAIT_CODES = {key_in_use: true, login: true, forbidden: true, replaced: true, side: true};

  /* "sent", "refused" or "wait" (no answer, or an answer that says: try again later). */
  function send(item) {
    if (navigator.onLine === false) { return Promise.resolve({state: "wait", data: null, status: 0}); }
    return fetch(item.url, {
      method: "POST",
      credentials: "same-origin",
      cache: "no-store",
      headers: {"Content-Type": item.type, "Accept": "application/json",
                "X-CSRFToken": csrfToken(), "Idempotency-Key": item.key,
                "X-Table-Side": item.side || ""},
      body: item.body
    }).then(function (res) {
      var json = (res.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      return (json ? res.json() : Promise.resolve(null)).catch(function () { return null; })
        .then(function (data) {
          if (res.ok && data) { return {state: "sent", data: data}; }
          // No JSON (a proxy, a CSRF page, a server error), too many requests, the key still
          // being processed, or this phone holds no code (or another side's or table's) for
          // it now: nothing was decided, keep it and try later.
          if (!data || res.status >= 500 || res.status === 429 || WAIT_CODES[data.code]) {
            return {state: "wait", data: data, status: res.status};
          }
          return {state: "refused", data: data, status: res.status};
        });
    }, function () { return {state: "wait", data: null, status: 0}; });
  }

  function settle(item, outcome) {
    var waiter = waiters[item.key];
    delete waiters[item.key];
    var entry = {state: outcome.state, kind: item.kind, board: item.board, label: item.label,
                 at: Date.now(), key: item.key, table: item.table || "", side: item.side || ""};
    if (outcome.state === "sent") {
      entry.text = outcome.data.message || outcome.data.text || t("stored");
    } else {
      entry.text = reasonOf(outcome.data) || t("refusedNoReason");
    }
    // A refusal answered to the page that is still showing the form is shown on the form.
    var logged = waiter && item.page === PAGE && outcome.state === "refused"
      ? Promise.resolve() : put(LOG, entry);
    return logged.then(function () { return remove(QUEUE, item.seq); }).then(function () {
      if (waiter) { waiter(outcome); }
      document.dispatchEvent(new CustomEvent("outbox:" + outcome.state, {detail: entry}));
    });
  }

  /* A submission of this page that stays in the outbox: the page may say so and move on. */
  function answerWaiting(item, outcome) {
    var waiter = waiters[item.key];
    if (waiter) { delete waiters[item.key]; waiter(outcome); }
  }

  function tableOf(url) {
    var m = /^(?:https?:\/\/[^/]+)?(\/[^/]+\/[^/]+\/)/.exec(url);
    return m ? m[1] : url;
  }

  /* What waits from this table and side under a code the organiser has since replaced goes
     with the code this page holds now (each item knows its table and side): typing the new
     code sends it, as the players' guide says. */
  function adopt(items) {
    var panel = document.getElementById("outbox");
    var here = homeUrl() ? new URL(homeUrl(), window.location.href).pathname : "";
    if (!panel || !here || !panel.dataset.table) { return Promise.resolve(items); }
    return Promise.all(items.map(function (item) {
      var old = tableOf(item.url);
      if (item.table !== panel.dataset.table || item.side !== mySide() || old === here) {
        return item;
      }
      item.url = item.url.replace(old, here);
      return put(QUEUE, item).then(function () { return item; });
    }));
  }

  function flushOnce() {
    return all(QUEUE).then(adopt).then(function (items) {
      items.sort(function (a, b) { return a.seq - b.seq; });
      // In order within each table: nothing goes before an item of its table that waits.
      var stopped = {};
      lastWaits = {};
      return items.reduce(function (chain, item) {
        return chain.then(function () {
          var table = tableOf(item.url);
          if (stopped[table]) { answerWaiting(item, stopped[table]); return null; }
          return send(item).then(function (outcome) {
            if (outcome.state === "wait") {
              stopped[table] = outcome;
              lastWaits[item.table || ""] = lastWaits[item.table || ""] || outcome;
              answerWaiting(item, outcome);
              return null;
            }
            return settle(item, outcome);
          });
        });
      }, Promise.resolve());
    });
  }
  var lastWaits = {};  // the first answer that kept an item waiting, by the item's table

  var again = false;
  function flush() {
    if (flushing) { again = true; return flushing; }
    var work = function () { return flushOnce(); };
    // One tab at a time sends (another tab's items are the same items).
    var locked = navigator.locks && navigator.locks.request
      ? navigator.locks.request(DB_NAME, work) : work();
    flushing = Promise.resolve(locked).catch(function () { return null; }).then(function () {
      flushing = null;
      if (again) { again = false; return flush(); }
      return render();
    });
    return flushing;
  }

  /* Keep ``item`` and send it; resolves with its outcome ("sent", "refused" or "wait"). */
  function enqueue(item) {
    item.key = newKey();
    if (item.side === undefined) { item.side = mySide(); }
    var panel = document.getElementById("outbox");
    item.table = panel ? panel.dataset.table || "" : "";
    item.page = PAGE;
    item.created = Date.now();
    var answered = new Promise(function (resolve) { waiters[item.key] = resolve; });
    return put(QUEUE, item).then(function () {
      render();
      flush();
      return answered;
    }, function () {
      // No IndexedDB (a private window of some browsers): send it once, directly.
      delete waiters[item.key];
      return send(item);
    });
  }

  /* ---- what the page says ---- */
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text) { node.textContent = text; }
    return node;
  }

  function render() {
    var panel = document.getElementById("outbox");
    if (!panel) { return Promise.resolve(); }
    return Promise.all([all(QUEUE), all(LOG)]).then(function (found) {
      var now = Date.now();
      var here = panel.dataset.table || "";
      // What waits for another table stays on the phone without being shown on this one.
      var items = found[0].filter(function (i) { return !here || i.table === here; });
      var log = found[1];
      // Only this table's: the tables of a round play the same boards, and another table's
      // "Board 2 entered: NS 40" would tell this one a score before it played board 2.
      var shown = log.filter(function (e) {
        return e.table === here && (e.state === "refused" || now - e.at < RECENT_MS);
      });
      panel.textContent = "";
      var byKind = {};
      items.forEach(function (i) { byKind[i.kind] = (byKind[i.kind] || 0) + 1; });
      // The table's home says everything; the other pages (the card by card, a form) keep
      // their room: what waits folded in one line, and only what was refused.
      var home = document.getElementById("boards") !== null;
      if (items.length) {
        var box = el("details", "outbox-waiting");
        box.open = home;
        var counts = [];
        ["result", "confirmation", "record", "referee"].forEach(function (kind) {
          if (byKind[kind]) { counts.push(counted(kind, byKind[kind])); }
        });
        box.appendChild(el("summary", "outbox-count", counts.join(" · ")));
        var why = navigator.onLine === false ? t("offline") : t("noAnswer");
        var kept = t("kept");
        var wait = here ? lastWaits[here] : lastWaits[Object.keys(lastWaits)[0]];
        // The server answered (a code to type, a key still in use): the network is not what
        // holds them back.
        if (wait && wait.data && wait.data.error) { why = wait.data.error; kept = t("keptAnswered"); }
        box.appendChild(el("p", "muted", why + " " + kept));
        var again = el("button", "small", t("sendNow"));
        again.type = "button";
        again.addEventListener("click", flush);
        box.appendChild(again);
        panel.appendChild(box);
      }
      shown.sort(function (a, b) { return b.at - a.at; });
      shown.filter(function (e) { return home || e.state === "refused"; }).slice(0, home ? 6 : 2)
        .forEach(function (entry) {
          var row = el("div", "outbox-entry outbox-" + entry.state);
          var head = (entry.label ? entry.label + " · " : "") +
            (entry.state === "sent" ? t("sent") : t("refused"));
          row.appendChild(el("strong", "", head));
          row.appendChild(el("span", "", " " + entry.text));
          var ok = el("button", "small link", t("dismiss"));
          ok.type = "button";
          ok.addEventListener("click", function () { remove(LOG, entry.id).then(render); });
          row.appendChild(ok);
          panel.appendChild(row);
        });
      panel.hidden = !panel.childNodes.length;
      panel.dataset.waiting = String(items.length);
      panel.dataset.refused = String(shown.filter(function (e) { return e.state === "refused"; }).length);
      markBoards(items);
    }).catch(function () { /* no IndexedDB: nothing to show */ });
  }

  /* A phone passed to another table forgets what it showed of the one it served before, as
     the service worker forgets its kept pages (sw.js, forgetOthers): the server's sentences
     about that table's results and the cards of a hand it entered card by card
     (table.js, "botifarra-play:<table>:<board>"). What waits to be sent stays, never shown
     here, until that table's code is typed on the phone again. */
  var PLAY_KEY = /^botifarra-play:([^:]*):/;
  function forgetOthers() {
    var panel = document.getElementById("outbox");
    var here = panel ? panel.dataset.table || "" : "";
    if (!here) { return Promise.resolve(); }
    try {
      var others = [];
      for (var i = 0; i < window.localStorage.length; i++) {
        var name = window.localStorage.key(i);
        var m = PLAY_KEY.exec(name || "");
        if (m && m[1] !== here) { others.push(name); }
      }
      others.forEach(function (n) { window.localStorage.removeItem(n); });
    } catch (e) { /* no localStorage */ }
    return all(LOG).then(function (log) {
      return Promise.all(log.filter(function (e) { return e.table !== here; })
        .map(function (e) { return remove(LOG, e.id); }));
    }).catch(function () { /* no IndexedDB: nothing kept */ });
  }

  /* On the table's home, each board with something waiting says so: what waits for this
     table (another table's board of the same number is not this one). */
  function markBoards(items) {
    document.querySelectorAll(".outbox-note").forEach(function (n) { n.remove(); });
    var home = homeUrl();
    var here = home ? new URL(home, window.location.href).pathname : "";
    items.forEach(function (item) {
      var article = document.getElementById("board-" + item.board);
      if (!article || !item.board) { return; }
      if (here && new URL(item.url, window.location.href).pathname.indexOf(here) !== 0) { return; }
      var note = el("p", "outbox-note", t("boardWaiting") + " " + counted(item.kind, 1));
      var header = article.querySelector("header");
      if (header) { header.after(note); } else { article.prepend(note); }
    });
  }

  /* ---- forms of the table pages ---- */
  function showRefusal(form, data) {
    var old = form.querySelector(".outbox-refusal");
    if (old) { old.remove(); }
    form.querySelectorAll(".outbox-field-error").forEach(function (n) { n.remove(); });
    form.querySelectorAll("[aria-invalid]").forEach(function (n) { n.removeAttribute("aria-invalid"); });
    var box = el("div", "outbox-refusal error");
    box.setAttribute("role", "alert");
    var head = el("p", "", t("refusedHere"));
    box.appendChild(head);
    var list = el("ul", "errorlist");
    var errors = (data && data.errors) || {};
    var first = null;
    Object.keys(errors).forEach(function (k) {
      // Written once, next to its field, as the page without JavaScript does; the box at the
      // top says that nothing was stored and lists only what belongs to no field.
      var field = form.querySelector("[name='" + k + "']");
      var slot = form.querySelector("#field-" + k);
      if (field) { field.setAttribute("aria-invalid", "true"); }
      if (!slot) {
        errors[k].forEach(function (m) { list.appendChild(el("li", "", m)); });
        return;
      }
      var note = el("p", "error outbox-field-error", errors[k].join(" "));
      note.id = "error-" + k;
      slot.appendChild(note);
      if (field) { field.setAttribute("aria-describedby", note.id); }
      first = first || slot;
    });
    if (!list.childNodes.length && !first) {
      list.appendChild(el("li", "", reasonOf(data) || t("refusedNoReason")));
    }
    if (list.childNodes.length) { box.appendChild(list); } else { head.textContent = t("refusedFields"); }
    form.prepend(box);
    (first || box).scrollIntoView({block: "center"});
  }

  function mySide() {
    var panel = document.getElementById("outbox");
    return panel ? panel.dataset.side || "" : "";
  }

  function homeUrl() {
    var panel = document.getElementById("outbox");
    return panel ? panel.dataset.homeUrl : "";
  }

  function initForms() {
    document.addEventListener("submit", function (event) {
      var form = event.target;
      if (!form.matches || !form.matches("form[data-outbox]") || event.defaultPrevented) { return; }
      event.preventDefault();
      if (form.dataset.sending === "1") { return; }
      form.dataset.sending = "1";
      var body = new URLSearchParams(new FormData(form));
      body.delete("csrfmiddlewaretoken");
      var board = form.dataset.board || "";
      form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; });
      enqueue({
        url: form.dataset.outboxUrl || form.action, body: body.toString(),
        type: "application/x-www-form-urlencoded",
        kind: form.dataset.outbox, board: board, label: form.dataset.label || "",
        side: mySide()
      }).then(function (outcome) {
        form.dataset.sending = "";
        form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = false; });
        if (outcome.state === "refused") { showRefusal(form, outcome.data); return; }
        // Stored: the page the form names (a pasted record: its board, with the verdict), or
        // the table's. Waiting: the table's, which says what waits.
        var next = outcome.state === "sent" ? form.dataset.outboxNext : "";
        var home = next || (outcome.data && outcome.data.home_url) ||
          homeUrl() + (board ? "#board-" + board : "");
        var target = new URL(home, window.location.href);
        if (target.pathname === window.location.pathname && target.search === window.location.search) {
          // Only the fragment differs: assign() would scroll and keep this page as it was, the
          // board still open for confirming with the other pair's code typed in it.
          form.reset();
          var open = form.closest("details");
          if (open) { open.open = false; }
          window.location.hash = target.hash;
          window.location.reload();
          return;
        }
        window.location.assign(home);
      });
    });
  }

  /* ---- the service worker ---- */
  function initWorker() {
    var panel = document.getElementById("outbox");
    if (!panel || !panel.dataset.sw || !("serviceWorker" in navigator)) { return; }
    navigator.serviceWorker.register(panel.dataset.sw, {scope: panel.dataset.swScope})
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (reg) {
        // Keep this page and the pages it links to, so that they open without the network
        // (not the pair's evening pages: each is kept once opened, not fetched by every load).
        var urls = [window.location.pathname + window.location.search];
        document.querySelectorAll("main a[href^='" + panel.dataset.swScope + "']:not([data-no-keep])").forEach(function (a) {
          var u = new URL(a.href, window.location.href);
          if (u.origin === window.location.origin) { urls.push(u.pathname + u.search); }
        });
        // The page's language too: the worker fetches again what it kept in another one.
        if (reg.active) { reg.active.postMessage({keep: urls, lang: document.documentElement.lang || ""}); }
      })
      .catch(function () { /* an old browser: the pages still work online */ });
  }

  /* The language selector (base.html) posts to an address outside the worker's scope: without
     the network the browser would leave the table for its own error page. Sent from here, a
     failure leaves the player on the page, told why. */
  function initLanguage() {
    var form = document.querySelector("form.lang");
    if (!form || !window.fetch || !window.FormData) { return; }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var old = document.getElementById("lang-note");
      if (old) { old.remove(); }
      var failed = function () {
        var note = el("ul", "messages");
        note.id = "lang-note";
        note.setAttribute("role", "alert");
        note.appendChild(el("li", "msg-warning", t("languageOffline")));
        var main = document.getElementById("main");
        if (main) { main.insertBefore(note, main.firstChild); }
      };
      if (navigator.onLine === false) { failed(); return; }
      // Not followed: the page it sends back to is opened by the browser next.
      fetch(form.action, {method: "POST", body: new FormData(form), credentials: "same-origin",
                          redirect: "manual"})
        .then(function (res) {
          if (!res.ok && res.type !== "opaqueredirect") {
            form.submit();  // the browser shows what the server said
            return;
          }
          window.location.assign(form.elements.next.value || window.location.href);
        }, failed);
    });
  }

  window.BotifarraOutbox = {enqueue: enqueue, flush: flush, render: render};

  document.addEventListener("DOMContentLoaded", function () {
    initForms();
    initLanguage();
    initWorker();
    forgetOthers().then(render);
    flush();
    window.addEventListener("online", flush);
    window.addEventListener("offline", render);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); } });
    window.setInterval(function () {
      var panel = document.getElementById("outbox");
      if (panel && panel.dataset.waiting && panel.dataset.waiting !== "0") { flush(); }
    }, 20000);
  });
})();
