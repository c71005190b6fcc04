/* The public pages: print buttons, and the live standings refreshed without a full reload. */
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (b) {
    b.addEventListener("click", function () { window.print(); });
  });
  var box = document.getElementById("standings-live");
  if (!box || !box.dataset.url) { return; }
  // Refresh the standings without a full reload: fetch the table as a fragment.
  setInterval(function () {
    if (document.hidden) { return; }
    fetch(box.dataset.url, {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html !== null) { box.innerHTML = html; } })
      .catch(function () {});
  }, parseInt(box.dataset.refresh, 10) || 15000);
})();
