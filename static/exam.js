// Exam pages: a countdown that follows the server's deadline (the server enforces it; this
// only shows it), and the result's Print button. No inline script: the CSP forbids it.
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function start() {
    var timer = document.getElementById("exam-timer");
    if (timer) {
      var left = parseInt(timer.getAttribute("data-seconds-left"), 10);
      var value = timer.querySelector(".exam-timer-value");
      var end = Date.now() + left * 1000;
      var tick = function () {
        var s = Math.max(0, Math.round((end - Date.now()) / 1000));
        value.textContent = Math.floor(s / 60) + ":" + pad(s % 60);
        if (s <= 0) {
          window.location.assign(timer.getAttribute("data-expired-url"));
          return;
        }
        window.setTimeout(tick, 1000);
      };
      tick();
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
