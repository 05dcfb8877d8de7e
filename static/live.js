// The classroom's pages refresh when their server-sent event stream says something changed
// (htmx's SSE extension, hx-trigger="sse:changed"). Their polls are the fallback: skipped while
// the stream is open, back as soon as it drops, and the only way without this script.
(function () {
  "use strict";

  function mark(event, open) {
    var feed = event.target;
    if (feed && feed.setAttribute) {
      if (open) feed.setAttribute("data-live", "open");
      else feed.removeAttribute("data-live");
    }
  }

  // A phone that loses its network says so at once ("offline"), while a silent stream would not:
  // the polls take over (and show the lost connection) until the stream opens again.
  window.addEventListener("offline", function () {
    document.querySelectorAll("[sse-connect][data-live]").forEach(function (feed) {
      feed.removeAttribute("data-live");
    });
  });

  document.addEventListener("htmx:sseOpen", function (event) { mark(event, true); });
  document.addEventListener("htmx:sseError", function (event) { mark(event, false); });
  document.addEventListener("htmx:sseClose", function (event) { mark(event, false); });

  // A notice must not be lost between a refresh and the next. htmx queues a notice's request on a
  // busy element, the answer then replaces that element (hx-swap="outerHTML"), and a queued request of
  // an element gone from the page is never sent; for a moment after the swap (htmx's settle delay) the
  // new element does not hear notices at all; and while the stream is open the poll stays quiet. So
  // every notice the stream sends is counted (on the EventSource, whatever element hears it), a
  // refresh keeps the count it was sent at, and one that missed a notice is followed by one more:
  // of the element that replaced it once htmx has set that one up (htmx:load), or of the same
  // element when nothing replaced it.
  var notices = 0;
  var counted = new WeakSet();  // each notice once, whichever listener meets it first
  function count(message) {
    if (counted.has(message)) return;
    counted.add(message);
    notices++;
  }
  document.addEventListener("htmx:sseOpen", function (event) {
    var source = event.detail && event.detail.source;
    if (source && !source.trainerCounts) {
      source.trainerCounts = true;
      source.addEventListener("changed", count);
    }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt, xhr = event.detail.xhr;
    if (!xhr || !elt.id || !elt.closest("[sse-connect]")) return;
    var config = event.detail.requestConfig;
    var trigger = config && config.triggeringEvent;
    if (trigger && trigger.detail instanceof MessageEvent) count(trigger.detail);  // the notice that sends it
    xhr.trainerHeard = notices;
    xhr.trainerElt = elt;
  });
  var owed = {};
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.trainerHeard === undefined) return;
    var elt = xhr.trainerElt;
    if (elt.isConnected) {  // nothing replaced it (an unchanged poll's 204, an error): htmx sends it next
      if (notices > xhr.trainerHeard) htmx.trigger(elt, "sse:changed");
    } else {
      owed[elt.id] = xhr.trainerHeard;
    }
  });
  document.addEventListener("htmx:load", function (event) {
    var elt = event.detail.elt;
    if (!elt.id || !Object.prototype.hasOwnProperty.call(owed, elt.id)) return;
    var heard = owed[elt.id];
    delete owed[elt.id];
    if (notices > heard) htmx.trigger(elt, "sse:changed");
  });

  // htmx wires up a part it swapped in only when the swap settles (20 ms later; here that is once
  // every poll): a button pressed in between would post the browser's own way and load the whole
  // page (the projector would leave full screen). A form is wired up as it is submitted instead;
  // htmx's listener, added now on the form, still hears this submit. One already set up is kept.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !(form instanceof HTMLFormElement) || !window.htmx) return;
    if (form.hasAttribute("hx-post") || form.hasAttribute("hx-get")) htmx.process(form);
  }, true);

  // A poll's request has no triggering event (htmx passes the element); a click, a submit or a
  // server-sent event has one, and always goes through.
  document.addEventListener("htmx:confirm", function (event) {
    if (event.detail.triggeringEvent instanceof Event) return;
    var feed = event.detail.elt.closest("[sse-connect]");
    if (feed && feed.getAttribute("data-live") === "open") event.preventDefault();
  });
})();
