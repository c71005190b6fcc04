/* Trick-by-trick replay of a play record on the referee's desk.
 *
 * Reads two JSON blocks written by the server (json_script): "replay-data" (the deal, the
 * engine's steps, the illegal card with its rule in words) and "replay-text" (every word shown,
 * already translated). It never decides anything about the rules: the server did.
 * Buttons and the ←/→/Home/End keys move one card at a time; forward stops on the first illegal
 * card, which is the last step the engine returns. When the reader may see the analysis, the
 * payload's "costs" marks the cards that cost points, with the best cards there were.
 */
(function () {
  "use strict";

  var dataNode = document.getElementById("replay-data");
  var textNode = document.getElementById("replay-text");
  var root = document.getElementById("replay");
  if (!dataNode || !textNode || !root) return;
  var data = JSON.parse(dataNode.textContent);
  var text = JSON.parse(textNode.textContent);
  var steps = data.steps || [];
  if (!steps.length) return;

  var SEATS = ["N", "E", "S", "W"];
  var SUITS = ["o", "c", "e", "b"];
  var STRENGTH = ["9", "1", "12", "11", "10", "8", "7", "6", "5", "4", "3", "2"];
  var illegal = data.illegal;
  var pos = 0; // number of cards shown (0 … steps.length)

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, key) {
      return values[key] === undefined ? "" : String(values[key]);
    });
  }

  // Like fmt, but a value may be a DOM node (a card): returns a <strong> holding the sentence.
  function fmtNodes(template, values, tag) {
    var out = el(tag || "strong", "");
    template.split(/(%\(\w+\)s)/).forEach(function (part) {
      var m = /^%\((\w+)\)s$/.exec(part);
      if (!m) { out.appendChild(document.createTextNode(part)); return; }
      var v = values[m[1]];
      out.appendChild(v instanceof Node ? v : document.createTextNode(v === undefined ? "" : String(v)));
    });
    return out;
  }

  function el(tag, cls, content) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (content !== undefined) node.textContent = content;
    return node;
  }

  function rankOf(token) { return token.slice(0, -1); }
  function suitOf(token) { return token.slice(-1); }

  // The same markup as the {% card %} template tag: rank, symbol, suit name for screen readers.
  function cardNode(token, extra) {
    var suit = suitOf(token);
    var info = text.suits[suit];
    var node = el("span", "card-token suit-" + suit + (extra ? " " + extra : ""));
    node.title = rankOf(token) + " " + info.name;
    node.dataset.card = token;
    node.appendChild(document.createTextNode(rankOf(token)));
    var sym = el("span", "", info.symbol);
    sym.setAttribute("aria-hidden", "true");
    node.appendChild(sym);
    node.appendChild(el("span", "visually-hidden", " " + info.name));
    return node;
  }

  function cardsLine(tokens) {
    var span = el("span", "card-list");
    tokens.forEach(function (t, i) {
      if (i) span.appendChild(document.createTextNode(" "));
      span.appendChild(cardNode(t));
    });
    return span;
  }

  function byStrength(a, b) {
    return STRENGTH.indexOf(rankOf(a)) - STRENGTH.indexOf(rankOf(b));
  }

  // What is in each hand after `n` cards: the deal minus the cards played so far.
  function handsAfter(n) {
    var played = {};
    for (var i = 0; i < n; i++) played[steps[i].card] = true;
    var out = {};
    SEATS.forEach(function (seat) {
      out[seat] = (data.hands[seat] || []).filter(function (t) { return !played[t]; });
    });
    return out;
  }

  var handNodes = {};
  var slotNodes = {};
  SEATS.forEach(function (seat) {
    handNodes[seat] = root.querySelector('[data-seat="' + seat + '"]');
    slotNodes[seat] = root.querySelector('[data-slot="' + seat + '"]');
  });
  var statusNode = root.querySelector(".replay-status");
  var totalsNode = root.querySelector(".replay-totals");
  var illegalNode = root.querySelector(".replay-illegal");
  var tricksNode = root.querySelector(".replay-tricks");
  var counterNode = root.querySelector(".replay-counter");
  var buttons = {};
  root.querySelectorAll("[data-go]").forEach(function (b) { buttons[b.dataset.go] = b; });

  function renderHands(n) {
    var hands = handsAfter(n);
    var next = n < steps.length ? steps[n] : null;
    var current = n > 0 ? steps[n - 1] : null;
    var atIllegal = illegal && current && current.index === illegal.index;
    SEATS.forEach(function (seat) {
      var node = handNodes[seat];
      node.textContent = "";
      var toMove = (atIllegal && current.seat === seat) || (!atIllegal && next && next.seat === seat);
      node.className = "rp-hand rp-" + seat + (toMove ? " to-move" : "") +
        (seat === data.dealer ? " dealer" : "");
      node.appendChild(el("div", "seat-name", text.seats[seat]));
      var legal = {};
      if (atIllegal && current.seat === seat) {
        illegal.legal.forEach(function (t) { legal[t] = true; });
      }
      SUITS.forEach(function (suit) {
        var line = el("div", "suit-line suit-" + suit);
        var sym = el("span", "", text.suits[suit].symbol);
        sym.setAttribute("aria-hidden", "true");
        line.appendChild(sym);
        line.appendChild(el("span", "visually-hidden", text.suits[suit].name + ": "));
        line.appendChild(document.createTextNode(" "));
        var tokens = hands[seat].filter(function (t) { return suitOf(t) === suit; }).sort(byStrength);
        if (!tokens.length) line.appendChild(document.createTextNode(text.void));
        tokens.forEach(function (t, i) {
          if (i) line.appendChild(document.createTextNode(" "));
          var c = el("span", "rank" + (legal[t] ? " legal" : ""), rankOf(t));
          c.dataset.card = t;
          line.appendChild(c);
        });
        node.appendChild(line);
      });
    });
  }

  // What the card of step s cost its pair with perfect play (only sent to who may see it).
  function costOf(s) {
    return (data.costs && data.costs[String(s.index)]) || null;
  }

  function renderTrick(n) {
    SEATS.forEach(function (seat) { slotNodes[seat].textContent = ""; });
    if (n === 0) return;
    var last = steps[n - 1];
    for (var i = 0; i < n; i++) {
      var s = steps[i];
      if (s.trick !== last.trick) continue;
      var bad = illegal && s.index === illegal.index;
      var won = last.winner && s.seat === last.winner;
      var slot = slotNodes[s.seat];
      var cost = costOf(s);
      slot.appendChild(cardNode(s.card, (bad ? "illegal" : "") + (won ? " winner" : "") +
        (i === n - 1 ? " latest" : "") + (cost ? " costly" : "")));
      if (cost) {
        var badge = el("span", "cost", "\u2212" + cost.cost);
        badge.title = text.cost_title;
        slot.appendChild(badge);
      }
    }
  }

  function renderTricks(n) {
    tricksNode.textContent = "";
    var done = 0;
    for (var i = 0; i < n; i++) {
      var s = steps[i];
      if (!s.winner) continue;
      done++;
      var li = el("li", "", fmt(text.won, { seat: text.seats[s.winner], trick: s.trick }));
      tricksNode.appendChild(li);
    }
    if (!done) tricksNode.appendChild(el("li", "muted none", text.tricks_none));
  }

  function renderIllegal(n) {
    var current = n > 0 ? steps[n - 1] : null;
    var show = illegal && current && current.index === illegal.index;
    illegalNode.hidden = !show;
    illegalNode.textContent = "";
    if (!show) return;
    var head = el("p", "illegal-card-line");
    head.appendChild(fmtNodes(text.illegal, {
      seat: text.seats[illegal.seat], card: cardNode(illegal.card, "illegal"),
      trick: current.trick }));
    illegalNode.appendChild(head);
    illegalNode.appendChild(el("p", "rule-sentence", illegal.sentence));
    var legalP = el("p", "legal-cards");
    legalP.appendChild(document.createTextNode(text.legal + " "));
    legalP.appendChild(cardsLine(illegal.legal));
    illegalNode.appendChild(legalP);
    illegalNode.appendChild(el("p", "penalty", fmt(text.penalty, {
      m: illegal.multiplier, ns: illegal.penalty.NS, ew: illegal.penalty.EW })));
    illegalNode.appendChild(el("p", "muted", text.stopped));
  }

  function render() {
    renderHands(pos);
    renderTrick(pos);
    renderTricks(pos);
    renderIllegal(pos);
    var current = pos > 0 ? steps[pos - 1] : null;
    if (!current) {
      statusNode.textContent = text.start;
    } else {
      var bad = illegal && current.index === illegal.index;
      statusNode.textContent = "";
      statusNode.appendChild(fmtNodes(text.step, { trick: current.trick,
        position: current.position, seat: text.seats[current.seat],
        card: cardNode(current.card, bad ? "illegal" : "") }, "span"));
      var after = "";
      if (current.winner) after += " " + fmt(text.won, { seat: text.seats[current.winner], trick: current.trick });
      if (pos === steps.length && !illegal && steps.length === 48) after += " " + text.end;
      if (after) statusNode.appendChild(document.createTextNode(after));
      var cost = costOf(current);
      if (cost) {
        statusNode.appendChild(document.createTextNode(" "));
        statusNode.appendChild(fmtNodes(text.cost, { cost: cost.cost, best: cardsLine(cost.best) },
          "span"));
      }
    }
    var totals = current ? current.totals : { NS: 0, EW: 0 };
    totalsNode.textContent = fmt(text.totals, { ns: totals.NS, ew: totals.EW });
    counterNode.textContent = fmt(text.counter, { i: pos, n: steps.length });
    buttons.start.disabled = buttons.back.disabled = pos === 0;
    buttons.forward.disabled = buttons.end.disabled = pos === steps.length;
    root.dataset.position = String(pos);
  }

  function go(where) {
    if (where === "start") pos = 0;
    else if (where === "back") pos = Math.max(0, pos - 1);
    else if (where === "forward") pos = Math.min(steps.length, pos + 1);
    else if (where === "end") pos = steps.length;
    var focused = document.activeElement;
    render();
    // A button that has just disabled itself (Next card at the last card, Start at the first)
    // would drop the focus to the page's top, and Home / End with it: hand it to its
    // neighbour going the other way.
    if (focused && focused.disabled && root.contains(focused)) {
      var atEnd = pos === steps.length;
      var next = atEnd ? buttons.back : buttons.forward;
      if (next && !next.disabled) next.focus();
    }
  }

  Object.keys(buttons).forEach(function (key) {
    buttons[key].addEventListener("click", function () { go(key); });
  });

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    if (target && target.isContentEditable) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var map = { ArrowRight: "forward", ArrowLeft: "back", Home: "start", End: "end" };
    var where = map[event.key];
    // Home and End scroll the page as usual unless the replay itself has the focus.
    if ((where === "start" || where === "end") && !root.contains(target)) return;
    if (!where) return;
    event.preventDefault();
    go(where);
  });

  root.hidden = false;
  render();
})();
