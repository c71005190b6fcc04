/* A PDF made in the background: follow its progress, then offer the download. The sentences
   come from the page (data-ready-text, data-failed-text), in the reader's language. */
(function () {
  "use strict";
  var box = document.getElementById("pdf-job");
  if (!box || !box.dataset.polling) { return; }
  var state = document.getElementById("pdf-state");
  var bar = document.getElementById("pdf-progress");
  var link = document.getElementById("pdf-download");
  var ready = box.dataset.readyText;
  var failed = box.dataset.failedText;
  function poll() {
    fetch(box.dataset.statusUrl, {credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (s) {
        bar.max = s.total || 1; bar.value = s.done || 0;
        if (s.state === "done") { state.textContent = ready; link.href = s.download; link.hidden = false; return; }
        if (s.state === "failed" || s.state === "missing") { state.textContent = failed + " " + (s.error || ""); return; }
        // The task queue is down: say so, and look again once it may be back.
        if (s.state === "unavailable") { state.textContent = s.error || ""; setTimeout(poll, 5000); return; }
        setTimeout(poll, 1000);
      })
      .catch(function () { setTimeout(poll, 3000); });
  }
  poll();
})();
