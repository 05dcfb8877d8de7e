// A moment the server wrote in UTC (it does not know the reader's time zone) is written again in
// the reader's own zone and language: <time datetime="...Z" data-local> gets the browser's local
// date and time with the zone named. Without JavaScript the UTC text stays, which is also right.
document.addEventListener("DOMContentLoaded", function () {
  var lang = document.documentElement.lang || undefined;
  document.querySelectorAll("time[datetime][data-local]").forEach(function (node) {
    var instant = new Date(node.getAttribute("datetime"));
    if (isNaN(instant.getTime())) { return; }
    try {
      node.textContent = new Intl.DateTimeFormat(lang, {
        year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit",
        timeZoneName: "short"
      }).format(instant);
      node.title = node.getAttribute("datetime");
    } catch (e) { /* an old browser: the UTC text stays */ }
  });
});
