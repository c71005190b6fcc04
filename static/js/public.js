/* The public pages: print buttons, and the live standings refreshed without a full reload. */
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (b) {
    b.addEventListener("click", function () { window.print(); });
  });
  var box = document.getElementById("standings-live");
  if (!box || !box.dataset.url) { return; }
  // Refresh the standings without a full reload: fetch the table as a fragment.
  var last = null;
  setInterval(function () {
    if (document.hidden) { return; }
    fetch(box.dataset.url, {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        // Unchanged, or someone is on a link of the table (keyboard, screen reader): leave it,
        // or the focus and the reading position would go back to the top every 15 s.
        var active = document.activeElement;
        if (html === null || html === last || (active && active !== document.body && box.contains(active))) {
          return;
        }
        last = html;
        box.innerHTML = html;
      })
      .catch(function () {});
  }, parseInt(box.dataset.refresh, 10) || 15000);
})();
