/* The players' table pages: status refresh and card-by-card entry (the short form: short_form.js).
   Vanilla JS, no build step. The legal cards come from rules.js (the engine's rule, ported and
   tested against it), so that a hand can be entered without the network; the hand is sent
   through the outbox (outbox.js) and the verdict and score are the server's engine's. */
(function () {
  "use strict";

  var TEXT = {};
  try {
    TEXT = JSON.parse(document.getElementById("tp-text").textContent);
  } catch (e) { TEXT = {}; }
  function t(key) { return TEXT[key] || key; }
  // A translated sentence with its %(name)s filled in (the words' order is the language's).
  function fmt(key, values) {
    return t(key).replace(/%\((\w+)\)s/g, function (_m, name) {
      return values[name] === undefined ? "" : String(values[name]);
    });
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") { node.textContent = attrs[k]; }
      else if (k === "class") { node.className = attrs[k]; }
      else { node.setAttribute(k, attrs[k]); }
    });
    (children || []).forEach(function (c) {
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }

  /* ---- table home: refresh the boards every 10 s without a full reload ---- */
  function initRefresh() {
    var boards = document.getElementById("boards");
    if (!boards || !boards.dataset.refreshUrl) { return; }
    var url = boards.dataset.refreshUrl;
    function busy(current) {
      var active = document.activeElement;
      return (active && current.contains(active) && active !== document.body) ||
        current.querySelector("details[open]") !== null;
    }
    function tick() {
      if (document.hidden || navigator.onLine === false) { return; }
      fetch(url, {credentials: "same-origin", headers: {"Accept": "text/html"}})
        .then(function (res) {
          var now = res.headers.get("X-Server-Now");  // for the round's clock (clock.js)
          if (now) { document.dispatchEvent(new CustomEvent("botifarra:server-now", {detail: now})); }
          if (res.status === 403) { window.location.reload(); return null; }
          return res.ok ? res.text() : null;
        })
        .then(function (html) {
          if (!html) { return; }
          // The network answers again: the page is no longer the copy kept offline.
          document.documentElement.removeAttribute("data-from-cache");
          var current = document.getElementById("boards");
          var holder = document.createElement("div");
          holder.innerHTML = html;
          var fresh = holder.querySelector("#boards");
          if (!current || !fresh || fresh.dataset.stamp === current.dataset.stamp) { return; }
          if (busy(current)) { return; }
          // The same node, new content: a screen reader announces changes inside the live
          // region it found on the page, not a new region inserted already filled.
          Array.prototype.slice.call(current.attributes).forEach(function (a) {
            if (!fresh.hasAttribute(a.name)) { current.removeAttribute(a.name); }
          });
          Array.prototype.slice.call(fresh.attributes).forEach(function (a) {
            current.setAttribute(a.name, a.value);
          });
          current.replaceChildren.apply(current, Array.prototype.slice.call(fresh.childNodes));
          if (window.BotifarraOutbox) { window.BotifarraOutbox.render(); }
        })
        .catch(function () { /* offline for a moment: try again next time */ });
    }
    window.setInterval(tick, 10000);
    // Something this phone kept was stored meanwhile: show the board's new status at once.
    document.addEventListener("outbox:sent", tick);
  }

  /* The short form (72 − x, calls in order, live score) is in short_form.js, shared with the
     referee's corrected result. */

  /* ---- card by card: rules.js says who plays and which cards are legal ---- */
  var SEATS = ["N", "W", "S", "E"];

  function cardNode(token, cfg, tag) {
    var letter = token.slice(-1);
    var rank = token.slice(0, -1);
    return el(tag || "span", {"class": "card-token suit-" + letter,
                              title: rank + " " + (cfg.suits[letter] || letter)}, [
      rank,
      el("span", {"aria-hidden": "true", text: cfg.symbols[letter] || ""}),
      el("span", {"class": "visually-hidden", text: " " + (cfg.suits[letter] || letter)})
    ]);
  }

  function initPlay() {
    var app = document.getElementById("play-app");
    if (!app) { return; }
    var cfg = JSON.parse(document.getElementById(app.dataset.config).textContent);
    var role = function (name) { return app.querySelector("[data-role=" + name + "]"); };
    var undoBtn = app.querySelector("[data-action=undo]");
    var submitBtn = app.querySelector("[data-action=submit]");
    var play = [];
    var state = null;
    var pending = false;
    try {
      var saved = JSON.parse(window.localStorage.getItem(cfg.storage_key) || "[]");
      if (Array.isArray(saved)) { play = saved.slice(0, 48); }
    } catch (e) { play = []; }
    app.hidden = false;

    function save() {
      try { window.localStorage.setItem(cfg.storage_key, JSON.stringify(play)); } catch (e) { /* private mode */ }
    }
    function error(text) {
      var node = role("error");
      node.textContent = text || "";
      node.hidden = !text;
    }
    function handNode(seat, tokens, toMove) {
      var box = el("div", {"class": "hand seat-" + seat + (seat === cfg.dealer ? " dealer" : "") +
                                   (seat === toMove ? " to-move" : "")});
      var name = seat === toMove ? fmt("toPlay", {seat: cfg.seats[seat]}) : cfg.seats[seat];
      box.appendChild(el("div", {"class": "seat-name", text: name}));
      ["o", "c", "e", "b"].forEach(function (letter) {
        var line = el("div", {"class": "suit-line suit-" + letter});
        line.appendChild(el("span", {"aria-hidden": "true", text: cfg.symbols[letter] + " "}));
        // The symbol is hidden from screen readers: they hear the suit's name instead.
        line.appendChild(el("span", {"class": "visually-hidden", text: (cfg.suits[letter] || letter) + ": "}));
        var ranks = tokens.filter(function (tok) { return tok.slice(-1) === letter; })
          .map(function (tok) { return tok.slice(0, -1); });
        line.appendChild(document.createTextNode(ranks.length ? ranks.join(" ") : t("void")));
        box.appendChild(line);
      });
      return box;
    }
    function render(answer) {
      state = answer.state;
      var deal = role("deal");
      deal.textContent = "";
      SEATS.forEach(function (seat) {
        deal.appendChild(handNode(seat, state.hands[seat] || [], answer.seat));
      });
      var mid = el("div", {"class": "mid play-trick"});
      state.trick.forEach(function (p) {
        var spot = el("div", {"class": "trick-card at-" + p.seat +
                              (state.trick_winner === p.seat ? " winner" : "")});
        spot.appendChild(cardNode(p.card, cfg));
        mid.appendChild(spot);
      });
      deal.appendChild(mid);

      var first = t("trick") + " " + Math.min(state.trick_number, 12) + " · " +
        (answer.seat ? fmt("toPlay", {seat: cfg.seats[answer.seat]}) : t("allIn"));
      if (state.trick_winner) { first += " · " + fmt("wins", {seat: cfg.seats[state.trick_winner]}); }
      var ns = cfg.sides.NS + " ", ew = " · " + cfg.sides.EW + " ";
      var second = t("tricks") + ": " + ns + state.tricks.NS + ew + state.tricks.EW +
        " — " + t("totals") + ": " + ns + state.totals.NS + ew + state.totals.EW +
        " — " + fmt("played", {n: state.count});
      var statusNode = role("status");
      statusNode.textContent = "";
      statusNode.appendChild(el("strong", {text: first}));
      statusNode.appendChild(el("br"));
      statusNode.appendChild(el("span", {"class": "muted", text: second}));

      var legal = role("legal");
      // Rebuilding the cards removes the button that had the focus: give it to the next card
      // (or Submit, or Undo), never back to the page's top, where a screen reader would restart.
      var focused = document.activeElement;
      var hadFocus = legal.contains(focused) || focused === undoBtn;
      legal.textContent = "";
      role("legal-label").textContent = answer.seat ? cfg.seats[answer.seat] + ": " + t("canPlay") : "";
      (answer.legal || []).forEach(function (token) {
        var button = cardNode(token, cfg, "button");
        button.type = "button";
        button.className += " play-card";
        button.dataset.card = token;
        legal.appendChild(button);
      });
      undoBtn.disabled = play.length === 0;
      submitBtn.disabled = !state.complete;
      if (hadFocus && !(focused === undoBtn && !undoBtn.disabled)) {
        var next = legal.querySelector("button") || (!submitBtn.disabled && submitBtn) ||
          (!undoBtn.disabled && undoBtn);
        if (next) { next.focus(); }
      }
      app.dataset.count = String(play.length);
    }
    var contract = {hands: cfg.hands, dealer: cfg.dealer, trump: cfg.trump, ruleset: cfg.ruleset};
    function refresh() {
      var found = window.BotifarraRules.replay(contract, play);
      if (found.illegal !== null) {
        // A kept play that the rules refuse (the contract changed on another phone): keep the
        // legal beginning so that the player can continue from there.
        play = play.slice(0, found.illegal);
        save();
        found = window.BotifarraRules.replay(contract, play);
      }
      error("");
      render({seat: found.to_move, legal: found.legal, state: found});
    }
    role("legal").addEventListener("click", function (event) {
      var button = event.target.closest("button[data-card]");
      if (!button || pending) { return; }
      play.push(button.dataset.card);
      save();
      refresh();
    });
    undoBtn.addEventListener("click", function () {
      if (pending || !play.length) { return; }
      play.pop();
      save();
      refresh();
    });
    submitBtn.addEventListener("click", function () {
      if (pending || !state || !state.complete) { return; }
      var record = {format: cfg.format, ruleset: cfg.ruleset, deal: {dealer: cfg.dealer},
                    choice: {delegated: cfg.delegated, trump: cfg.trump},
                    doubles: cfg.doubles, play: play};
      pending = true;
      submitBtn.disabled = true;
      window.BotifarraOutbox.enqueue({
        url: cfg.submit_url, body: JSON.stringify(record), type: "application/json",
        kind: "record", board: String(cfg.board), label: cfg.label
      }).then(function (outcome) {
        pending = false;
        var box = role("verdict");
        box.textContent = "";
        box.hidden = false;
        var back = el("p", {}, [el("a", {"class": "button primary big",
          href: cfg.home_url + "#board-" + cfg.board, text: t("back")})]);
        if (outcome.state === "sent") {
          box.className = "tp-verdict card verdict-" + outcome.data.verdict.outcome;
          box.appendChild(el("p", {}, [el("strong", {text: outcome.data.text})]));
          box.appendChild(el("p", {text: outcome.data.after}));
          box.appendChild(back);
          done();
        } else if (outcome.state === "wait") {
          box.className = "tp-verdict card verdict-waiting";
          box.appendChild(el("p", {}, [el("strong", {text: t("savedOffline")})]));
          box.appendChild(back);
          done();
        } else {
          var data = outcome.data || {};
          box.className = "tp-verdict card verdict-invalid";
          box.appendChild(el("p", {text: t("problems")}));
          var list = el("ul", {"class": "errorlist"});
          (data.problems || [{path: "", message: data.error || t("failed")}])
            .forEach(function (p) {
              list.appendChild(el("li", {text: (p.path ? p.path + ": " : "") + p.message}));
            });
          box.appendChild(list);
          submitBtn.disabled = false;
        }
        box.scrollIntoView({block: "nearest"});
      });
    });
    // The hand is stored, or kept in the outbox: this page's copy is no longer needed.
    function done() {
      try { window.localStorage.removeItem(cfg.storage_key); } catch (e) { /* ignore */ }
      role("legal").textContent = "";
      undoBtn.disabled = true;
      submitBtn.disabled = true;
      app.dataset.sent = "1";
    }
    refresh();
  }

  /* ---- the notice the service worker shows for a table page this phone never kept ---- */
  function initOffline() {
    var home = document.getElementById("offline-home");
    if (!home) { return; }
    var panel = document.getElementById("outbox");
    var scope = (panel && panel.dataset.swScope) || "/table/";
    // The address is still the page asked for, /table/<code>/…: its table's page is kept.
    var path = window.location.pathname;
    var code = path.indexOf(scope) === 0 ? path.slice(scope.length).split("/")[0] : "";
    if (code && code !== "offline") { home.href = scope + code + "/"; }
    document.getElementById("offline-retry").addEventListener("click", function () {
      window.location.reload();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    initRefresh();
    initPlay();
    initOffline();
  });
})();
