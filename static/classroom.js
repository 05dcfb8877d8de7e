// A student's phone in a classroom session. Loaded as a file: the CSP forbids inline scripts.
// Without this file the answer form is one long form and the page still polls (htmx) or reloads.
(function () {
  "use strict";
  var RETRY_FIRST_MS = 500;
  var RETRY_MAX_MS = 5000;

  // ---- one group of fields per screen

  function steps(form) {
    return Array.prototype.slice.call(form.querySelectorAll("[data-step]"));
  }

  function show(form, index, focus) {
    var all = steps(form);
    index = Math.max(0, Math.min(index, all.length - 1));
    all.forEach(function (step, i) {
      step.hidden = i !== index;
    });
    var send = form.querySelector("[data-send]");
    if (send) send.hidden = index !== all.length - 1;
    form.setAttribute("data-step-at", String(index));
    if (focus) {
      var heading = all[index].querySelector("h3");
      if (heading) heading.focus();
      all[index].scrollIntoView({ block: "start" });
    }
  }

  function setUp(root) {
    var forms = root.querySelectorAll ? root.querySelectorAll("form[data-steps]") : [];
    Array.prototype.forEach.call(forms, function (form) {
      var all = steps(form);
      if (all.length < 2 || form.hasAttribute("data-step-at")) return;
      Array.prototype.forEach.call(form.querySelectorAll(".step-nav"), function (nav) {
        nav.hidden = false;
      });
      // A form sent back with a message opens at the first step that has one.
      var start = 0;
      for (var i = 0; i < all.length; i++) {
        if (all[i].querySelector(".field--error")) {
          start = i;
          break;
        }
      }
      show(form, start, start > 0);
    });
  }

  document.addEventListener("click", function (event) {
    var go = event.target instanceof Element ? event.target.closest("[data-step-go]") : null;
    if (!go) return;
    var form = go.closest("form[data-steps]");
    event.preventDefault();
    show(form, Number(form.getAttribute("data-step-at") || 0) + Number(go.getAttribute("data-step-go")), true);
  });

  // Enter in an amount moves to the next step rather than sending a half-filled card.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.defaultPrevented || !(event.target instanceof HTMLInputElement)) return;
    var form = event.target.closest("form[data-steps][data-step-at]");
    if (!form) return;
    var at = Number(form.getAttribute("data-step-at"));
    if (at < steps(form).length - 1) {
      event.preventDefault();
      show(form, at + 1, true);
    }
  });

  // ---- a lost connection: said on the page, and tried again

  var retryTimer = null;
  var retryDelay = RETRY_FIRST_MS;

  function banner(lost, unsent) {
    var box = document.getElementById("connection");
    if (!box) return;
    box.hidden = !lost;
    var note = box.querySelector(".connection-unsent");
    if (note) note.hidden = !unsent;
  }

  function isAnswer(el) {
    return el instanceof Element && el.matches("form[data-steps]");
  }

  function failed(event) {
    var form = event.target;
    if (!isAnswer(form)) {
      banner(true, retryTimer !== null);
      return;
    }
    // The same form again, so the same answer id: the server stores it once however often it arrives.
    banner(true, true);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(function () {
      retryTimer = null;
      if (document.body.contains(form)) form.requestSubmit();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
  }

  // A server that is restarting (a 5xx) is a lost connection too: keep the page as it is (the stage keeps
  // polling, the form keeps what was typed) instead of swapping in the error page.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.status >= 500 && event.target instanceof Element && event.target.closest("#stage, #self-question")) {
      event.detail.shouldSwap = false;
    }
  });
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  document.addEventListener("htmx:responseError", function (event) {
    if (event.detail.xhr && event.detail.xhr.status >= 500) failed(event);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.status === 0 || xhr.status >= 500) return;
    if (isAnswer(event.target)) retryDelay = RETRY_FIRST_MS;
    if (retryTimer === null) banner(false, false);
  });
  document.addEventListener("htmx:load", function (event) {
    setUp(event.target);
  });

  function start() {
    setUp(document);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
