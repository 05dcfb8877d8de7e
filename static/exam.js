// Exam pages: the countdown (countdown.js: the server enforces the deadline, this only shows it),
// the result's Print button, and a warning before an unsaved answer is left. No inline script:
// the CSP forbids it.
(function () {
  "use strict";
  function start() {
    var timer = document.getElementById("exam-timer");
    if (timer) { window.trainerCountdown(timer, ".exam-timer-value", 1000); }
    // An answer typed and not saved: leaving by another link (the language switch, say) asks first.
    // The question numbers and "Finish the exam…" submit the form, so they save it instead.
    var form = document.getElementById("exam-answer");
    if (form) {
      var dirty = false;
      form.addEventListener("input", function () { dirty = true; });
      form.addEventListener("change", function () { dirty = true; });
      form.addEventListener("submit", function () { dirty = false; });
      window.addEventListener("beforeunload", function (event) {
        if (!dirty) { return; }
        event.preventDefault();
        event.returnValue = "";
      });
    }
    var print = document.querySelector("[data-print]");
    if (print) {
      print.addEventListener("click", function () { window.print(); });
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
