// Speed drill and streak pages: the countdown (countdown.js: the server decides what is counted; this only
// shows it), the answer box kept in focus, and keys 1-9 for the seats. No inline script: the CSP forbids it.
(function () {
  "use strict";
  function start() {
    var timer = document.getElementById("speed-timer");
    if (timer) {  // a streak has no clock
      window.trainerCountdown(timer, ".speed-timer-value", 250, function (s) {
        timer.classList.toggle("is-low", s <= 10);
      });
    }
    var box = document.getElementById("speed-answer");
    if (box && document.activeElement !== box) { box.focus(); }
    // A seat question: keys 1-9 tap the seats in the order shown.
    var seats = document.querySelectorAll(".speed-seat[data-key]");
    if (seats.length) {
      var hint = document.querySelector(".speed-keys");
      if (hint) { hint.hidden = false; }
      document.addEventListener("keydown", function (event) {
        if (event.ctrlKey || event.metaKey || event.altKey) { return; }
        var seat = document.querySelector('.speed-seat[data-key="' + event.key + '"]');
        if (seat) {
          event.preventDefault();
          seat.click();
        }
      });
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
