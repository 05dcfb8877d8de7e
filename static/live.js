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

  // A poll's request has no triggering event (htmx passes the element); a click, a submit or a
  // server-sent event has one, and always goes through.
  document.addEventListener("htmx:confirm", function (event) {
    if (event.detail.triggeringEvent instanceof Event) return;
    var feed = event.detail.elt.closest("[sse-connect]");
    if (feed && feed.getAttribute("data-live") === "open") event.preventDefault();
  });
})();
