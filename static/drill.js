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

  // An amount box takes digits, commas and spaces; the server checks what is sent all the same.
  document.addEventListener("beforeinput", function (event) {
    var box = event.target;
    if (!(box instanceof HTMLInputElement) || box.inputMode !== "numeric" || event.isComposing) return;
    var text = event.data || (event.dataTransfer && event.dataTransfer.getData("text/plain"));
    if (text && /[^0-9\uff10-\uff19,\uff0c\s]/.test(text)) event.preventDefault();
  }, true);

  // Capture phase on the document runs before htmx's listener on the form.
  document.addEventListener("submit", function (event) {
    if (composing) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
})();

// Keyboard shortcuts on the drill page: Enter checks, N goes to the next spot,
// S shows the answer (the derivation), R replays the action so far on every
// street. They act on elements marked data-key, so each is also a plain link,
// button or <details> that works without this file; none fires while the
// learner types in a field. N or S pressed before they can act shows why
// (#key-note).
(function () {
  "use strict";
  var REPLAY_STEP_MS = 700;
  var replayTimer = null;

  function typing(target) {
    if (!(target instanceof Element)) return false;
    return target.closest("input, textarea, select, [contenteditable]:not([contenteditable=false])") !== null;
  }

  function visible(el) {
    return el.offsetParent !== null || el.getClientRects().length > 0;
  }

  function marked(key) {
    var all = document.querySelectorAll('[data-key="' + key + '"]');
    for (var i = 0; i < all.length; i++) {
      if (visible(all[i]) && !all[i].disabled) return all[i];
    }
    return null;
  }

  function activate(el) {
    if (el.matches("a[href], button, input")) {
      el.click();
    } else {
      if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
      el.focus();
      el.scrollIntoView({ block: "start" });
    }
  }

  function replay() {
    var box = document.getElementById("action-so-far");
    if (!box) return;
    box.open = true;
    var rows = box.querySelectorAll("table.history tbody tr");
    var reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    clearTimeout(replayTimer);
    box.querySelector("summary").focus();
    var first = box.querySelector("table.history") || box;
    first.scrollIntoView({ block: "nearest" });
    if (reduce) return;
    Array.prototype.forEach.call(rows, function (row) {
      row.hidden = true;
      row.classList.remove("is-replaying");
    });
    var i = 0;
    (function next() {
      if (i > 0) rows[i - 1].classList.remove("is-replaying");
      if (i >= rows.length) return;
      rows[i].hidden = false;
      rows[i].classList.add("is-replaying");
      i += 1;
      replayTimer = setTimeout(next, REPLAY_STEP_MS);
    })();
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (typing(event.target)) return;
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    var el;
    if (key === "Enter") {
      // On a link, a button or a summary, Enter keeps its own meaning.
      if (event.target instanceof Element && event.target.closest("a[href], button, summary, [role=button]")) return;
      el = marked("enter");
    } else if (key === "n" || key === "s") {
      el = marked(key);
      if (!el) {
        later();
        return;
      }
    } else if (key === "r") {
      if (!document.getElementById("action-so-far")) return;
      event.preventDefault();
      replay();
      return;
    }
    if (!el) return;
    event.preventDefault();
    activate(el);
  });

  function later() {
    var note = document.getElementById("key-note");
    if (!note) return;
    note.hidden = false;
    note.textContent = note.textContent; // a new text node, which the live region reads out
  }

  // the note goes once an answer is checked
  document.addEventListener("htmx:afterSwap", function () {
    var note = document.getElementById("key-note");
    if (note) note.hidden = true;
  });

  function showHints() {
    var hints = document.querySelectorAll(".key-hints[hidden]");
    for (var i = 0; i < hints.length; i++) hints[i].hidden = false;
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", showHints);
  } else {
    showHints();
  }
})();
