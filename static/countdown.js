// A countdown that follows the server's deadline (data-seconds-left), then opens data-expired-url.
// The server enforces the time; this only shows it. Shared by the exam and the speed drill pages
// (exam.js, speed.js). No inline script: the CSP forbids it.
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  // timer: the element with the data attributes; value: the selector of the text it shows;
  // every: milliseconds between updates; onTick(seconds left): called on each update.
  window.trainerCountdown = function (timer, value, every, onTick) {
    var left = parseInt(timer.getAttribute("data-seconds-left"), 10);
    var shown = timer.querySelector(value);
    var end = Date.now() + left * 1000;
    var tick = function () {
      var s = Math.max(0, Math.round((end - Date.now()) / 1000));
      shown.textContent = Math.floor(s / 60) + ":" + pad(s % 60);
      if (onTick) { onTick(s); }
      if (s <= 0) {
        window.location.assign(timer.getAttribute("data-expired-url"));
        return;
      }
      window.setTimeout(tick, every);
    };
    tick();
  };
})();
