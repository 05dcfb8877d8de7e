// The projector's keys: N next question, R reveal, F full screen. Each presses a real button of the page
// (a form that posts with its CSRF token), so the buttons work without this file. Loaded as a file: the CSP
// forbids inline scripts.
(function () {
  "use strict";

  function typing(target) {
    return target instanceof Element && target.closest("input, textarea, select, [contenteditable]") !== null;
  }

  function fullScreen() {
    if (document.fullscreenElement) {
      document.exitFullscreen();
    } else if (document.documentElement.requestFullscreen) {
      document.documentElement.requestFullscreen().catch(function () {});
    }
  }

  // Capture phase: these keys mean this page's buttons here, not the drill's shortcuts.
  window.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (typing(event.target)) return;
    var key = event.key.length === 1 ? event.key.toLowerCase() : "";
    if (key !== "n" && key !== "r" && key !== "f") return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (key === "f") {
      fullScreen();
      return;
    }
    var button = document.querySelector('[data-projector-key="' + key + '"]');
    if (button && !button.disabled) {
      button.disabled = true; // one press, one POST
      button.form.requestSubmit();
    }
  }, true);

  function start() {
    var toggle = document.querySelector('[data-projector-key="f"]');
    if (!toggle || !document.documentElement.requestFullscreen) return;
    toggle.hidden = false;
    toggle.addEventListener("click", fullScreen);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
