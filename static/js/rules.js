/* The legal-card rule of engine/rules.py (R6, R7, R8) and the replay of a partial hand, ported
   so that the card-by-card page works without the network. tests/engine/test_rules_js.py runs it
   with node against the engine on the reference records: a change to either must keep them equal.
   A card is an int 0–47 (suit * 12 + rank − 1, suits o c e b); seats N=0 E=1 S=2 W=3, play goes
   to the right (seat + 3) & 3. Works in a browser (window.BotifarraRules) and in node. */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) { module.exports = factory(); }
  else { root.BotifarraRules = factory(); }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var SUITS = "oceb";
  var SEATS = ["N", "E", "S", "W"];
  var TRUMPS = ["oros", "copes", "espases", "bastos", "botifarra"];
  var BOTIFARRA = 4;
  var STRENGTH_ORDER = [9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2];  // R1, strongest first
  var RANK_POINTS = {9: 5, 1: 4, 12: 3, 11: 2, 10: 1};

  function suit(c) { return Math.floor(c / 12); }
  function rank(c) { return c % 12 + 1; }
  function strength(c) { return 11 - STRENGTH_ORDER.indexOf(rank(c)); }
  function points(c) { return RANK_POINTS[rank(c)] || 0; }
  function token(c) { return rank(c) + SUITS[suit(c)]; }
  function parse(tok) {
    var m = /^(1[0-2]|[1-9])([oceb])$/.exec(String(tok));
    if (!m) { throw new Error("not a card: " + tok); }
    return SUITS.indexOf(m[2]) * 12 + Number(m[1]) - 1;
  }
  // R1 order within each suit, suits in canonical order: how the engine lists legal cards.
  function sortCards(cards) {
    return cards.slice().sort(function (a, b) {
      return suit(a) - suit(b) || strength(b) - strength(a);
    });
  }

  /* Does card ``c`` beat ``win``, the card now winning, under trump index ``t`` (R6)? */
  function beats(t, win, c) {
    if (suit(c) === suit(win)) { return strength(c) > strength(win); }
    return t !== BOTIFARRA && suit(win) !== t && suit(c) === t;
  }

  function lowestOfSuits(hand) {
    var low = {};
    hand.forEach(function (c) {
      var s = suit(c);
      if (low[s] === undefined || strength(c) < strength(low[s])) { low[s] = c; }
    });
    return Object.keys(low).map(function (s) { return low[s]; });
  }

  /* engine.rules.legal_mask on a list of cards: R7, plus R8 when ``obligada``. */
  function legal(hand, position, led, win, partnerWinning, t, obligada) {
    if (position === 0) { return sortCards(hand); }
    var beating = function (c) { return beats(t, win, c); };
    var follow = hand.filter(function (c) { return suit(c) === led; });
    var pool = follow.length ? follow : hand;
    var allowed = pool;
    if (!partnerWinning) {
      var over = pool.filter(beating);
      allowed = over.length ? over : pool;
    }
    if (obligada && allowed.some(function (c) { return !beating(c); })) {
      var extra = partnerWinning || (position === 1 && !follow.length);
      var lowest = lowestOfSuits(hand);
      allowed = allowed.filter(function (c) {
        return beating(c) || lowest.indexOf(c) >= 0 || (extra && points(c) > 0);
      });
    }
    return sortCards(allowed);
  }

  /* The state after ``play`` (tokens) of a deal: {hands: {N: [tokens]…}, dealer, trump, ruleset}.
     Stops at the first card that is not held or not legal (``illegal``: its index). */
  function replay(deal, play) {
    var t = TRUMPS.indexOf(deal.trump);
    var obligada = deal.ruleset === "obligada";
    var hands = SEATS.map(function (s) { return (deal.hands[s] || []).map(parse); });
    var seat = (SEATS.indexOf(deal.dealer) + 3) & 3;
    var pos = 0, led = 0, win = 0, winSeat = 0, trickPts = 0;
    var totals = [0, 0], tricks = [0, 0];
    var trick = [], lastWinner = null, trickNumber = 1;
    var steps = [];
    var illegal = null;
    for (var i = 0; i < play.length; i++) {
      if (pos === 4) { pos = 0; trick = []; lastWinner = null; }
      var c = parse(play[i]);
      var h = hands[seat];
      var partner = pos > 0 && (winSeat ^ seat) === 2;
      var allowed = legal(h, pos, led, win, partner, t, obligada);
      steps.push({seat: SEATS[seat], legal: allowed.map(token)});
      if (allowed.indexOf(c) < 0) { illegal = i; break; }
      hands[seat] = h.filter(function (x) { return x !== c; });
      trick.push({seat: SEATS[seat], card: token(c)});
      if (pos === 0) {
        led = suit(c); win = c; winSeat = seat; trickPts = points(c); pos = 1;
        seat = (seat + 3) & 3;
        continue;
      }
      if (beats(t, win, c)) { win = c; winSeat = seat; }
      trickPts += points(c);
      if (pos === 3) {
        totals[winSeat & 1] += trickPts + 1;
        tricks[winSeat & 1] += 1;
        lastWinner = SEATS[winSeat];
        seat = winSeat;
        pos = 0;
        if (i < 47) { trickNumber += 1; }
        // The finished trick stays on the table until the next card is played.
        pos = 4;
        continue;
      }
      pos += 1;
      seat = (seat + 3) & 3;
    }
    var position = pos === 4 ? 0 : pos;
    var count = illegal === null ? play.length : illegal;
    var complete = illegal === null && count === 48;
    var toMove = complete || illegal !== null ? null : SEATS[seat];
    var state = {
      count: count,
      to_move: toMove,
      legal: toMove ? legal(hands[seat], position, led, win,
                            position > 0 && (winSeat ^ seat) === 2, t, obligada).map(token) : [],
      hands: {},
      trick: trick,
      trick_number: pos === 4 ? trickNumber - (complete ? 0 : 1) : trickNumber,
      trick_winner: pos === 4 ? lastWinner : null,
      tricks: {NS: tricks[0], EW: tricks[1]},
      totals: {NS: totals[0], EW: totals[1]},
      complete: complete,
      illegal: illegal,
      steps: steps
    };
    SEATS.forEach(function (s, k) { state.hands[s] = sortCards(hands[k]).map(token); });
    return state;
  }

  return {legal: legal, replay: replay, parse: parse, token: token, TRUMPS: TRUMPS};
});
