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
      if (form.hasAttribute("data-step-at")) return;
      if (!form.querySelector(".field--error")) restore(form); // a form sent back carries what was sent
      if (all.length < 2) return;
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

  // ---- a half-typed answer survives a reload: kept in this tab by session and question until the server has it

  var KEPT = ["csrf_token", "position", "answer_id"];

  function draftKey(form) {
    var position = form.querySelector("[name=position]");
    return "draft " + form.getAttribute("action") + " " + (position ? position.value : "");
  }

  function keep(form) {
    var typed = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || KEPT.indexOf(el.name) >= 0 || ((el.type === "radio" || el.type === "checkbox") && !el.checked)) return;
      typed.push([el.name, el.value]);
    });
    try {
      sessionStorage.setItem(draftKey(form), JSON.stringify(typed));
    } catch (e) {} // storage full or refused: the answer is only not kept
  }

  function restore(form) {
    var typed;
    try {
      typed = JSON.parse(sessionStorage.getItem(draftKey(form)) || "null");
    } catch (e) {}
    if (!Array.isArray(typed)) return;
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || KEPT.indexOf(el.name) >= 0) return;
      var given = typed.filter(function (pair) { return pair[0] === el.name; });
      if (el.type === "radio" || el.type === "checkbox") {
        el.checked = given.some(function (pair) { return pair[1] === el.value; });
      } else if (given.length && !el.value) {
        el.value = given[0][1];
      }
    });
  }

  function forget(form) {
    try {
      sessionStorage.removeItem(draftKey(form));
    } catch (e) {}
  }

  function typedIn(event) {
    var form = event.target instanceof Element ? event.target.closest("form[data-steps]") : null;
    if (form) keep(form);
  }
  document.addEventListener("input", typedIn);
  document.addEventListener("change", typedIn);

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
    return el instanceof Element && el.matches("form[data-steps], form[data-quick]");
  }

  // A quick question's answer is the button tapped: a retry sends the same one.
  document.addEventListener("submit", function (event) {
    if (event.submitter && isAnswer(event.target)) event.target.tappedButton = event.submitter;
  }, true);

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
      if (document.body.contains(form)) form.requestSubmit(form.tappedButton || undefined);
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
    // the form itself, also once its response has swapped it out (the event then comes from a parent)
    var form = event.detail.requestConfig ? event.detail.requestConfig.elt : event.target;
    if (isAnswer(form)) {
      retryDelay = RETRY_FIRST_MS;
      if (xhr.status < 300) forget(form); // the server has it: stored, or sent back with what was typed
    }
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
