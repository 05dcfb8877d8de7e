// A live question's countdown (data-seconds-left, from the server, which closes the question itself): the
// seconds go down on the phone, the projector and the control page; at 0 it says "Time is up" and a phone's
// choices are disabled. Started again for each part htmx swaps in. Loaded as a file: the CSP forbids inline scripts.
(function () {
  "use strict";

  function start(clock) {
    if (clock.getAttribute("data-started")) return;
    clock.setAttribute("data-started", "1");
    var end = Date.now() + parseInt(clock.getAttribute("data-seconds-left"), 10) * 1000;
    var value = clock.querySelector("[data-clock-value]");
    var tick = function () {
      if (!document.body.contains(clock)) return;
      var left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      if (value) value.textContent = String(left);
      if (left > 0) {
        window.setTimeout(tick, 250);
        return;
      }
      clock.classList.add("class-clock--up");
      var shown = clock.querySelector(".class-clock-left");
      var up = clock.querySelector(".class-clock-up");
      if (shown) shown.hidden = true;
      if (up) up.hidden = false;
      var form = clock.closest("form");
      if (form) {
        Array.prototype.forEach.call(form.querySelectorAll(".quick-choice"), function (button) {
          button.disabled = true;
        });
      }
    };
    tick();
  }

  function setUp(root) {
    var scope = root && root.querySelectorAll ? root : document;
    Array.prototype.forEach.call(scope.querySelectorAll("[data-class-clock]"), start);
    if (scope.matches && scope.matches("[data-class-clock]")) start(scope);
  }
  document.addEventListener("htmx:load", function (event) { setUp(event.target); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  } else {
    setUp(document);
  }
})();
