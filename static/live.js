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

  // A notice heard while this element's refresh is out would be lost: htmx queues its request on the
  // element, the answer then replaces that element (hx-swap="outerHTML"), and a queued request of an
  // element no longer on the page is dropped; while the stream is open the poll stays quiet too. So
  // the page counts the notices (capture phase: before htmx sends the refresh a notice triggers), and
  // an answer that left one unheard is followed by one more refresh, of the element that replaced it
  // once htmx has set that one up (htmx:load), or of the same element when nothing replaced it.
  var heard = 0;
  var owed = {};
  document.addEventListener("sse:changed", function () { heard++; }, true);
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (event.detail.xhr && elt.id && elt.closest("[sse-connect]")) {
      event.detail.xhr.trainerHeard = heard;
      event.detail.xhr.trainerElt = elt;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || xhr.trainerHeard === undefined || xhr.trainerHeard === heard) return;
    var elt = xhr.trainerElt;
    if (elt.isConnected) {
      htmx.trigger(elt, "sse:changed");  // queued by htmx, sent as this request ends
    } else {
      owed[elt.id] = true;
    }
  });
  document.addEventListener("htmx:load", function (event) {
    var elt = event.detail.elt;
    if (elt.id && owed[elt.id]) {
      delete owed[elt.id];
      htmx.trigger(elt, "sse:changed");
    }
  });

  // A poll's request has no triggering event (htmx passes the element); a click, a submit or a
  // server-sent event has one, and always goes through.
  document.addEventListener("htmx:confirm", function (event) {
    if (event.detail.triggeringEvent instanceof Event) return;
    var feed = event.detail.elt.closest("[sse-connect]");
    if (feed && feed.getAttribute("data-live") === "open") event.preventDefault();
  });
})();
