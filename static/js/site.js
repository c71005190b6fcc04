/* Every page: the language menu switches as soon as a language is chosen (the "Change" button
   is there for browsers without JavaScript). A file, not an onchange attribute: the
   Content-Security-Policy runs no inline script. */
(function () {
  "use strict";
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
})();
