// A moment the server wrote in UTC (it does not know the reader's time zone) is written again in
// the reader's own zone and language: <time datetime="...Z" data-local="datetime"> gets the
// browser's local date and time with the zone named, data-local="time" the clock time only.
// Content swapped in later (htmx, the classroom's live updates) is rewritten too. Without
// JavaScript the UTC text stays, which is also right.
(function () {
  var PARTS = {
    datetime: { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" },
    time: { hour: "numeric", minute: "2-digit", second: "2-digit", timeZoneName: "short" }
  };
  function rewrite(root) {
    if (!root || !root.querySelectorAll) { return; }
    root.querySelectorAll("time[datetime][data-local]").forEach(function (node) {
      var instant = new Date(node.getAttribute("datetime"));
      if (isNaN(instant.getTime())) { return; }
      var options = PARTS[node.getAttribute("data-local")] || PARTS.datetime;
      try {
        node.textContent = new Intl.DateTimeFormat(document.documentElement.lang || undefined, options).format(instant);
        node.title = node.getAttribute("datetime");
      } catch (e) { /* an old browser: the UTC text stays */ }
    });
  }
  document.addEventListener("DOMContentLoaded", function () { rewrite(document); });
  document.addEventListener("htmx:load", function (event) { rewrite(event.target); });
})();
