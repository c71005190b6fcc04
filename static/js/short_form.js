/* The short result as it is typed, for the players' form (table/short.html) and the referee's
   corrected result (referee/dispute.html): one hand total gives the other (72 − x), a recontro
   needs a contro and Sant Vicenç a recontro, and the live score comes from the server's engine.
   A form opts in with data-short-form, data-preview-url and, for a prefixed Django form,
   data-prefix. Vanilla JS, no build step. */
(function () {
  "use strict";

  var TEXT = {};
  try {
    TEXT = JSON.parse(document.getElementById("short-form-text").textContent);
  } catch (e) { TEXT = {}; }
  function t(key) { return TEXT[key] || key; }

  function init(form) {
    var prefix = form.dataset.prefix || "";
    var output = form.querySelector("output.live-score");
    var ns = form.querySelector("[name='" + prefix + "totals_ns']");
    var ew = form.querySelector("[name='" + prefix + "totals_ew']");
    var timer = null;
    var seq = 0;

    function inputs(name) { return form.querySelectorAll("[name='" + prefix + name + "']"); }
    function value(name) {
      var found = inputs(name);
      if (!found.length) { return ""; }
      if (found[0].type === "radio") {
        var on = form.querySelector("[name='" + prefix + name + "']:checked");
        return on ? on.value : "";
      }
      if (found[0].type === "checkbox") { return found[0].checked ? "1" : ""; }
      return found[0].value;
    }
    // Only a whole number from 0 to 72 gives the other total; anything else leaves it empty
    // (the server then says what is wrong, on the field that was typed).
    function other(typed) {
      var n = Number(typed);
      if (typed === "" || !Number.isInteger(n) || n < 0 || n > 72) { return ""; }
      return String(72 - n);
    }
    function setGroup(name, enabled) {
      inputs(name).forEach(function (input) {
        if (input.value === "") { return; }
        input.disabled = !enabled;
        if (!enabled && input.checked) {
          input.checked = false;
          var none = form.querySelector("[name='" + prefix + name + "'][value='']");
          if (none) { none.checked = true; }
        }
      });
      var row = form.querySelector("[data-call=" + name + "]");
      if (row) { row.classList.toggle("inactive", !enabled); }
    }
    function sync() {
      var svAllowed = form.dataset.svBotifarra === "1" || value("trump") !== "botifarra";
      setGroup("recontro", value("contro") !== "");
      setGroup("sant_vicenc", value("recontro") !== "" && svAllowed);
      var played = !inputs("outcome").length || value("outcome") === "played";
      if (ns && ew) {
        ns.disabled = !played;
        ew.disabled = !played;
      }
      var box = form.querySelector("#field-totals");
      if (box) { box.classList.toggle("inactive", !played); }
    }
    function show(data) {
      if (!output) { return; }
      output.textContent = "";
      output.classList.remove("ok", "problem");
      if (data.ok) {
        output.classList.add("ok");
        var label = document.createElement("span");
        label.className = "label";
        label.textContent = t("score") + ": ";
        var score = document.createElement("strong");
        score.textContent = t("NS") + " " + data.score.NS + " · " + t("EW") + " " + data.score.EW;
        var extra = document.createElement("span");
        extra.className = "muted";
        extra.textContent = " ×" + data.multiplier + (data.capot ? " · " + t("capot") : "");
        output.appendChild(label);
        output.appendChild(score);
        output.appendChild(extra);
      } else if (data.complete) {
        output.classList.add("problem");
        var first = Object.keys(data.errors || {})[0];
        output.textContent = first ? data.errors[first][0] : t("hint");
      } else {
        output.textContent = t("hint");
      }
    }
    function preview() {
      var params = new URLSearchParams(new FormData(form));
      params.delete("csrfmiddlewaretoken");
      var mine = ++seq;
      if (navigator.onLine === false && form.dataset.outbox) {
        if (output) { output.textContent = t("offline"); }
        return;
      }
      fetch(form.dataset.previewUrl + "?" + params.toString(),
            {credentials: "same-origin", headers: {"Accept": "application/json"}})
        .then(function (res) { return res.json(); })
        .then(function (data) { if (mine === seq) { show(data); } })
        .catch(function () {
          // A table page keeps what is sent on the phone (outbox.js): it can still be sent.
          if (mine === seq && output) { output.textContent = t(form.dataset.outbox ? "offline" : "failed"); }
        });
    }
    function changed(event) {
      if (event && event.type === "input" && event.target === ns) { ew.value = other(ns.value); }
      if (event && event.type === "input" && event.target === ew) { ns.value = other(ew.value); }
      sync();
      window.clearTimeout(timer);
      timer = window.setTimeout(preview, 200);
    }
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
    // Pressing Send blurs the last field ("change"): no preview may start as the page leaves.
    form.addEventListener("submit", function () { window.clearTimeout(timer); });
    sync();
    preview();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-short-form]").forEach(init);
  });
})();
