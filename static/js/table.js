/* The players' table pages: status refresh and card-by-card entry (the short form: short_form.js).
   Vanilla JS, no build step. Every rule (legal cards, scores) comes from the server's engine. */
(function () {
  "use strict";

  var TEXT = {};
  try {
    TEXT = JSON.parse(document.getElementById("tp-text").textContent);
  } catch (e) { TEXT = {}; }
  function t(key) { return TEXT[key] || key; }

  function csrfToken() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) { return input.value; }
    var m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
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

  function postJSON(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "Accept": "application/json",
                "X-CSRFToken": csrfToken()},
      body: JSON.stringify(body)
    }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (data) {
        return {status: res.status, ok: res.ok, data: data};
      });
    });
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
      if (document.hidden) { return; }
      fetch(url, {credentials: "same-origin", headers: {"Accept": "text/html"}})
        .then(function (res) {
          if (res.status === 403) { window.location.reload(); return null; }
          return res.ok ? res.text() : null;
        })
        .then(function (html) {
          if (!html) { return; }
          var current = document.getElementById("boards");
          var holder = document.createElement("div");
          holder.innerHTML = html;
          var fresh = holder.querySelector("#boards");
          if (!current || !fresh || fresh.dataset.stamp === current.dataset.stamp) { return; }
          if (busy(current)) { return; }
          current.replaceWith(fresh);
        })
        .catch(function () { /* offline for a moment: try again next time */ });
    }
    window.setInterval(tick, 10000);
  }

  /* The short form (72 − x, calls in order, live score) is in short_form.js, shared with the
     referee's corrected result. */

  /* ---- card by card: the server says who plays and which cards are legal ---- */
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
      var name = cfg.seats[seat] + (seat === toMove ? " · " + t("toPlay") : "");
      box.appendChild(el("div", {"class": "seat-name", text: name}));
      ["o", "c", "e", "b"].forEach(function (letter) {
        var line = el("div", {"class": "suit-line suit-" + letter});
        line.appendChild(el("span", {"aria-hidden": "true", text: cfg.symbols[letter] + " "}));
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
        (answer.seat ? cfg.seats[answer.seat] + " " + t("toPlay") : t("allIn"));
      if (state.trick_winner) { first += " · " + cfg.seats[state.trick_winner] + " " + t("wins"); }
      var ns = cfg.sides.NS + " ", ew = " · " + cfg.sides.EW + " ";
      var second = t("tricks") + ": " + ns + state.tricks.NS + ew + state.tricks.EW +
        " — " + t("totals") + ": " + ns + state.totals.NS + ew + state.totals.EW +
        " — " + state.count + "/48 " + t("played");
      var statusNode = role("status");
      statusNode.textContent = "";
      statusNode.appendChild(el("strong", {text: first}));
      statusNode.appendChild(el("br"));
      statusNode.appendChild(el("span", {"class": "muted", text: second}));

      var legal = role("legal");
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
      app.dataset.count = String(play.length);
    }
    function refresh() {
      pending = true;
      app.classList.add("busy");
      return postJSON(cfg.legal_url, {play: play}).then(function (res) {
        pending = false;
        app.classList.remove("busy");
        if (res.ok) { error(""); render(res.data); return; }
        var problems = (res.data.problems || []).map(function (p) { return p.message; });
        error(problems.join(" ") || res.data.error || t("failed"));
        if (res.status === 400 && play.length) {
          // A stored play that the engine refuses (another device changed the contract):
          // go back one card so that the player can continue from a legal position.
          play.pop();
          save();
          return refresh();
        }
      }).catch(function () {
        pending = false;
        app.classList.remove("busy");
        error(t("failed"));
      });
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
      postJSON(cfg.submit_url, record).then(function (res) {
        pending = false;
        var box = role("verdict");
        box.textContent = "";
        box.hidden = false;
        if (res.ok) {
          box.className = "tp-verdict card verdict-" + res.data.verdict.outcome;
          box.appendChild(el("p", {}, [el("strong", {text: res.data.text})]));
          box.appendChild(el("p", {text: res.data.after}));
          box.appendChild(el("p", {}, [el("a", {"class": "button primary big",
            href: res.data.home_url + "#board-" + cfg.board, text: t("back")})]));
          try { window.localStorage.removeItem(cfg.storage_key); } catch (e) { /* ignore */ }
          role("legal").textContent = "";
          undoBtn.disabled = true;
        } else {
          box.className = "tp-verdict card verdict-invalid";
          box.appendChild(el("p", {text: t("problems")}));
          var list = el("ul", {"class": "errorlist"});
          (res.data.problems || [{path: "", message: res.data.error || t("failed")}])
            .forEach(function (p) {
              list.appendChild(el("li", {text: (p.path ? p.path + ": " : "") + p.message}));
            });
          box.appendChild(list);
          submitBtn.disabled = false;
        }
        box.scrollIntoView({block: "nearest"});
      }).catch(function () {
        pending = false;
        submitBtn.disabled = false;
        error(t("failed"));
      });
    });
    refresh();
  }

  document.addEventListener("DOMContentLoaded", function () {
    initRefresh();
    initPlay();
  });
})();
