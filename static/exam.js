// Exam pages: the countdown (countdown.js: the server enforces the deadline, this only shows it)
// and the result's Print button. No inline script: the CSP forbids it.
(function () {
  "use strict";
  function start() {
    var timer = document.getElementById("exam-timer");
    if (timer) { window.trainerCountdown(timer, ".exam-timer-value", 1000); }
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
