// Keeps a Chinese (or any) input method's Enter from submitting the form
// while a word is still being composed. Loaded as a file: the CSP forbids
// inline scripts.
(function () {
  "use strict";
  var composing = false;
  var endedAt = 0;

  document.addEventListener("compositionstart", function () {
    composing = true;
  }, true);
  document.addEventListener("compositionend", function () {
    composing = false;
    endedAt = Date.now();
  }, true);

  function stillComposing(event) {
    // Safari sends the Enter that ends a composition after compositionend,
    // with keyCode 229; a few milliseconds' grace covers it.
    return composing || event.isComposing || event.keyCode === 229 || Date.now() - endedAt < 50;
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && event.target instanceof HTMLInputElement && stillComposing(event)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  // Capture phase on the document runs before htmx's listener on the form.
  document.addEventListener("submit", function (event) {
    if (composing) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
})();
