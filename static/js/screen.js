/* The room's screen: show one slide at a time, the next every data-rotate-every ms (12 s by
   default, ?every=N in the address); the slides themselves are refreshed by live.js. "Pause"
   stops the rotation (and shows every slide). */
(function () {
  "use strict";
  var index = 0;
  var paused = false;

  function slides() {
    var box = document.getElementById("screen-slides");
    return box ? Array.prototype.slice.call(box.querySelectorAll("[data-slide]")) : [];
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
  }

  function next() {
    if (paused) { return; }
    index += 1;
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
    show();
    var box = document.getElementById("screen-slides");
    var every = box ? parseInt(box.getAttribute("data-rotate-every"), 10) : 0;
    window.setInterval(next, every > 0 ? every : 12000);
  });
  document.addEventListener("live:updated", show);
})();
