// Speed drill pages: a countdown that follows the server's clock (the server decides what is
// counted; this only shows it), the answer box kept in focus, and keys 1-9 for the seats. No inline script: the CSP forbids it.
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function start() {
    var timer = document.getElementById("speed-timer");
    if (!timer) { return; }
    var left = parseInt(timer.getAttribute("data-seconds-left"), 10);
    var value = timer.querySelector(".speed-timer-value");
    var end = Date.now() + left * 1000;
    var tick = function () {
      var s = Math.max(0, Math.round((end - Date.now()) / 1000));
      value.textContent = Math.floor(s / 60) + ":" + pad(s % 60);
      timer.classList.toggle("is-low", s <= 10);
      if (s <= 0) {
        window.location.assign(timer.getAttribute("data-expired-url"));
        return;
      }
      window.setTimeout(tick, 250);
    };
    tick();
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
