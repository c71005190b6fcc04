/* The organiser's event dashboard: while the boards are dealt or the standings recomputed,
   follow the progress and enable the buttons that wait for it. */
(function () {
  "use strict";
  var card = document.getElementById("boards-card");
  if (!card || !card.dataset.running) return;
  var url = card.dataset.progressUrl, timer = null;
  function poll() {
    fetch(url, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) return;
        document.getElementById("boards-ready").textContent = data.boards_ready;
        document.getElementById("boards-total").textContent = data.total_boards;
        var bar = document.getElementById("boards-progress");
        bar.max = data.total_boards; bar.value = data.boards_ready;
        if (data.boards_done) {
          document.querySelectorAll("[data-needs-boards]").forEach(function (b) { b.disabled = false; });
          document.querySelectorAll("[data-boards-wait]").forEach(function (p) { p.hidden = true; });
        }
        var state = document.getElementById("standings-state");
        if (data.standings_state !== "updating" && data.standings_updated_label && state.querySelector(".badge")) {
          // The server's wording: the site's time zone, not the browser's.
          state.textContent = state.dataset.updatedLabel + " " + data.standings_updated_label;
        }
        if (data.boards_done && data.standings_state !== "updating") clearInterval(timer);
      })
      .catch(function () {});
  }
  timer = setInterval(poll, 2000);
  poll();
})();
