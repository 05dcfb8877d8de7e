// The projector's keys: N next question, R reveal, F full screen. N and R press the page's own buttons (forms that
// post with the CSRF token; htmx swaps the projector's part in place, so the page is not reloaded and full screen
// stays on), so the buttons work by mouse, and without this file as plain forms. Loaded as a file: the CSP forbids
// inline scripts.
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
    if (button && !button.disabled) button.form.requestSubmit(button);
  }, true);

  document.addEventListener("click", function (event) {
    if (event.target instanceof Element && event.target.closest('[data-projector-key="f"]')) fullScreen();
  });

  // The stylesheet fits the usual spot to the screen; a very large one (ten seats, a card of twenty columns, a
  // long derivation) is set smaller, in steps, until nothing scrolls. The custom property is set on the part
  // htmx does not swap (through the CSSOM, which the CSP allows), so it is tried again from 1 for each new part.
  function fit() {
    var frame = document.querySelector(".projector");
    if (!frame) return;
    var page = document.scrollingElement;
    var scale = 1;
    frame.style.setProperty("--fit", "1");
    while (page.scrollHeight > window.innerHeight && scale > 0.5) {
      scale -= 0.05;
      frame.style.setProperty("--fit", scale.toFixed(2));
    }
  }

  // A quick question's bars: each as tall as its share of the most tapped choice (set through the CSSOM,
  // which the CSP allows; without this file the counts say it).
  function bars() {
    Array.prototype.forEach.call(document.querySelectorAll(".quick-bar-fill[data-height]"), function (fill) {
      fill.style.height = "calc((100% - 5em) * " + Number(fill.getAttribute("data-height")) / 100 + ")";
    });
  }

  function offerFullScreen() {
    bars();
    var toggle = document.querySelector('[data-projector-key="f"]');
    if (toggle && document.documentElement.requestFullscreen) toggle.hidden = false;
    fit();
  }
  document.addEventListener("htmx:load", offerFullScreen);
  window.addEventListener("resize", fit);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", offerFullScreen);
  } else {
    offerFullScreen();
  }
})();
