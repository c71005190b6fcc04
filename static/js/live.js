/* Live fragments: an element with data-live-url refreshes itself from that URL (a fragment the
   server renders), asking with If-None-Match so that nothing changed costs a 304. New items
   marked data-announce-id are announced in the page's live region (and with a short sound when
   the reader switched it on). No build step, no framework; CSP-friendly (no inline script). */
(function () {
  "use strict";

  var seen = {};
  var region = null;
  var SOUND_KEY = "botifarra-live-sound";

  function announceRegion() {
    if (!region) {
      region = document.getElementById("live-announce");
    }
    return region;
  }

  function beep() {
    if (window.localStorage.getItem(SOUND_KEY) !== "1") { return; }
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      var ctx = new Ctx();
      var osc = ctx.createOscillator();
      var gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.value = 0.08;
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.25);
    } catch (e) { /* no audio here: the text is announced anyway */ }
  }

  function collect(root, first) {
    var fresh = [];
    root.querySelectorAll("[data-announce-id]").forEach(function (node) {
      var id = node.getAttribute("data-announce-id");
      if (!seen[id]) {
        seen[id] = true;
        if (!first) { fresh.push(node.getAttribute("data-announce-text") || node.textContent); }
      }
    });
    if (fresh.length) {
      var live = announceRegion();
      if (live) { live.textContent = fresh.join(" · "); }
      beep();
    }
  }

  /* The server's time on the answer, for the round's clock (clock.js). */
  function heardServer(res) {
    var now = res.headers.get("X-Server-Now");
    if (now) { document.dispatchEvent(new CustomEvent("botifarra:server-now", {detail: now})); }
  }

  function busy(node) {
    var active = document.activeElement;
    return (active && active !== document.body && node.contains(active)) ||
      node.querySelector("details[open]") !== null;
  }

  function watch(node) {
    var url = node.getAttribute("data-live-url");
    var every = parseInt(node.getAttribute("data-live-every"), 10) || 5000;
    var etag = null;
    var id = node.id;
    collect(node, true);
    function tick() {
      if (document.hidden) { return; }
      var headers = {"Accept": "text/html"};
      if (etag) { headers["If-None-Match"] = etag; }
      fetch(url, {credentials: "same-origin", headers: headers, cache: "no-store"})
        .then(function (res) {
          heardServer(res);
          if (res.status === 304) { return null; }
          if (!res.ok) { return null; }
          etag = res.headers.get("ETag");
          return res.text();
        })
        .then(function (html) {
          if (!html) { return; }
          var current = document.getElementById(id);
          if (!current) { return; }
          var holder = document.createElement("div");
          holder.innerHTML = html;
          var fresh = holder.querySelector("#" + id);
          if (!fresh) { return; }
          if (busy(current)) {
            // Someone works in it (a link focused, a form open): keep it as it is, but still
            // announce what is new, and fetch it whole again next time to show it.
            etag = null;
            collect(fresh, false);
            return;
          }
          current.replaceWith(fresh);
          document.dispatchEvent(new CustomEvent("live:updated", {detail: {id: id}}));
          collect(fresh, false);
        })
        .catch(function () { /* offline for a moment: try again next time */ });
    }
    window.setInterval(tick, every);
  }

  function initSound() {
    var box = document.getElementById("live-sound");
    if (!box) { return; }
    box.checked = window.localStorage.getItem(SOUND_KEY) === "1";
    box.addEventListener("change", function () {
      window.localStorage.setItem(SOUND_KEY, box.checked ? "1" : "0");
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    initSound();
    document.querySelectorAll("[data-live-url]").forEach(watch);
  });
})();
