/* Logging out tells the table pages' service worker (templates/table/sw.js) to forget every
   table page it kept: a player's phone must not show its table's cards or scores without the
   network once nobody is logged in on it. What waits to be sent (outbox.js) stays. */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-forget-table-pages]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (!("serviceWorker" in navigator)) { return; }
        event.preventDefault();
        var sent = false;
        function submit() {
          if (sent) { return; }
          sent = true;
          form.submit();
        }
        setTimeout(submit, 2000);  // a worker that does not answer never keeps anyone logged in
        navigator.serviceWorker.getRegistration(form.getAttribute("data-forget-table-pages"))
          .then(function (reg) {
            if (reg && reg.active) { reg.active.postMessage({forget: true}); }
          })
          .catch(function () { /* nothing kept to forget */ })
          .then(submit);
      });
    });
  });
})();
