/* The round's clock: an element with data-clock-state="running" counts down to data-clock-ends
   (ms since the epoch, the server's time). The difference between the server's clock and this
   device's is measured from the page as first loaded (data-server-now), then again from each
   live refresh's answer (its X-Server-Now header, which live.js and table.js pass on as a
   "botifarra:server-now" event), so that a phone with a wrong clock shows the right time, also
   when the clock was started after the page was loaded, and a fragment rendered earlier
   (live.js shares them between consoles) still counts from the true end. A page the phone kept
   and shows without the network (<html data-from-cache>) was rendered earlier: its server time
   is old, so the difference measured last online is used (kept in localStorage), or none.
   At zero it says "time is up" (data-over-text). */
(function () {
  "use strict";
  var skew = null; // server time − device time, in ms

  function text(seconds) {
    var m = Math.floor(seconds / 60);
    var s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-clock-state='running']").forEach(function (node) {
      var ends = parseInt(node.getAttribute("data-clock-ends"), 10);
      if (isNaN(ends)) { return; }
      var left = Math.max(0, Math.ceil((ends - (now + (skew || 0))) / 1000));
      var time = node.querySelector("[data-clock-time]");
      if (time) { time.textContent = text(left); }
      if (left === 0) {
        node.setAttribute("data-clock-state", "over");
        node.classList.remove("clock-running");
        node.classList.add("clock-over");
        var label = node.querySelector("[data-clock-label]");
        if (label) { label.textContent = node.getAttribute("data-over-text"); }
      }
    });
  }

  var KEY = "botifarra-clock-skew";

  document.addEventListener("DOMContentLoaded", function () {
    var first = document.querySelector("[data-server-now]");
    var kept = document.documentElement.hasAttribute("data-from-cache");
    try {
      if (kept) {
        skew = parseInt(window.localStorage.getItem(KEY) || "0", 10) || 0;
      } else if (first) {
        skew = parseInt(first.getAttribute("data-server-now"), 10) - Date.now();
        window.localStorage.setItem(KEY, String(skew));
      }
    } catch (e) {  // no localStorage: measure from the page, as when it is fresh
      skew = kept ? 0 : (first ? parseInt(first.getAttribute("data-server-now"), 10) - Date.now() : null);
    }
    tick();
    window.setInterval(tick, 1000);
  });

  document.addEventListener("botifarra:server-now", function (event) {
    var now = parseInt(event.detail, 10);
    if (isNaN(now)) { return; }
    skew = now - Date.now();
    try { window.localStorage.setItem(KEY, String(skew)); } catch (e) { /* measured anyway */ }
    tick();
  });
})();
