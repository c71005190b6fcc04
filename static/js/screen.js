/* The room's screen: show one slide at a time, the next every data-rotate-every ms (12 s by
   default, ?every=N in the address); the slides themselves are refreshed by live.js. "Pause"
   stops the rotation (and shows every slide).

   The server sends each list ("find your table", the standings) as one table; it is split here
   into as many slides as the screen's height needs, since nobody scrolls a projector. */
(function () {
  "use strict";
  var index = 0;
  var paused = false;
  var shown = null; // the slide on the screen: its list and first row, found again after a refit
  var MARGIN = 12; // px kept free under a slide's last row

  function slides() {
    var box = document.getElementById("screen-slides");
    return box ? Array.prototype.slice.call(box.querySelectorAll("[data-slide]")) : [];
  }

  function only(section) {
    slides().forEach(function (s) { s.classList.toggle("current", s === section); });
  }

  function emptied(section) {
    var copy = section.cloneNode(true);
    var body = copy.querySelector("tbody");
    while (body.firstChild) { body.removeChild(body.firstChild); }
    return copy;
  }

  function numbered(parts, kind) {
    parts.forEach(function (part, i) {
      var heading = part.querySelector("h2");
      var id = kind + "-" + (i + 1);
      heading.id = id;
      part.setAttribute("aria-labelledby", id);
      var sub = part.querySelector("[data-part]");
      if (sub) {
        sub.textContent = (i + 1) + "/" + parts.length;
        sub.hidden = parts.length < 2;
      }
    });
  }

  /* Fill slides one row at a time, each shown alone as the room sees it, and start a new
     slide when a row would end below the screen (a slide keeps at least one row). */
  function split(first) {
    var kind = first.getAttribute("data-fit");
    var body = first.querySelector("tbody");
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (row) { body.removeChild(row); });
    var parts = [first];
    var section = first;
    var limit = window.innerHeight - MARGIN;
    only(section);
    rows.forEach(function (row) {
      body.appendChild(row);
      if (body.rows.length > 1 && row.getBoundingClientRect().bottom > limit) {
        body.removeChild(row);
        var next = emptied(section);
        section.parentNode.insertBefore(next, section.nextSibling);
        section = next;
        body = section.querySelector("tbody");
        only(section);
        body.appendChild(row);
        parts.push(section);
      }
    });
    numbered(parts, kind);
  }

  /* Put every list back in one table, then split it again for this screen. */
  function fit() {
    var box = document.getElementById("screen-slides");
    if (!box) { return; }
    var firsts = {};
    slides().forEach(function (s) {
      var kind = s.getAttribute("data-fit");
      if (!kind) { return; }
      if (!firsts[kind]) { firsts[kind] = s; return; }
      var body = firsts[kind].querySelector("tbody");
      Array.prototype.slice.call(s.querySelector("tbody").rows).forEach(function (row) {
        body.appendChild(row);
      });
      s.parentNode.removeChild(s);
    });
    var rotating = box.classList.contains("rotating");
    box.classList.add("rotating");
    Object.keys(firsts).forEach(function (kind) { split(firsts[kind]); });
    box.classList.toggle("rotating", rotating);
  }

  function show() {
    var box = document.getElementById("screen-slides");
    if (!box) { return; }
    var all = slides();
    box.classList.toggle("rotating", !paused && all.length > 1);
    if (!all.length) { return; }
    index = index % all.length;
    all.forEach(function (s, i) { s.classList.toggle("current", i === index); });
    box.setAttribute("data-current", String(index));
    shown = mark(all[index]);
  }

  function kindOf(slide) {
    return slide.getAttribute("data-fit") || slide.getAttribute("aria-labelledby");
  }

  function mark(slide) {
    var row = slide.querySelector("tbody tr");
    return {kind: kindOf(slide), row: row ? row.textContent : null};
  }

  /* After the lists were split again (a refresh, a resize, the clock's line coming or going)
     the slide count may differ: go on from the slide holding what was on the screen, so the
     rotation neither jumps back nor skips a slide. */
  function findShown() {
    if (!shown) { return; }
    var all = slides();
    var same = all.filter(function (s) { return kindOf(s) === shown.kind; });
    if (!same.length) { return; }
    var holding = same.filter(function (s) {
      return Array.prototype.some.call(s.querySelectorAll("tbody tr"), function (r) {
        return r.textContent === shown.row;
      });
    });
    index = all.indexOf(holding.length ? holding[0] : same[0]);
  }

  function next() {
    if (paused) { return; }
    index += 1;
    show();
  }

  function refit() {
    fit();
    findShown();
    show();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("screen-pause");
    if (button) {
      button.addEventListener("click", function () {
        paused = !paused;
        button.setAttribute("aria-pressed", paused ? "true" : "false");
        show();
      });
    }
    refit();
    var box = document.getElementById("screen-slides");
    var every = box ? parseInt(box.getAttribute("data-rotate-every"), 10) : 0;
    window.setInterval(next, every > 0 ? every : 12000);
    var waiting = null;
    window.addEventListener("resize", function () {
      window.clearTimeout(waiting);
      waiting = window.setTimeout(refit, 200);
    });
  });
  document.addEventListener("live:updated", refit);
})();
