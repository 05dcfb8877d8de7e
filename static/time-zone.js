// A time-zone field left empty is filled with the browser's own zone (an IANA name such as
// Asia/Taipei), so the window an instructor types is read in the zone they are in. The default
// window the server wrote (now to a week from now) was in UTC, not knowing the zone: it is
// written again in the browser's local time.
document.addEventListener("DOMContentLoaded", function () {
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
  if (!zone) { return; }
  function local(date) {
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return date.getFullYear() + "-" + two(date.getMonth() + 1) + "-" + two(date.getDate()) +
      "T" + two(date.getHours()) + ":" + two(date.getMinutes());
  }
  document.querySelectorAll("input[data-browser-time-zone]").forEach(function (input) {
    if (input.value) { return; }
    input.value = zone;
    var form = input.form;
    var defaults = form && form.querySelector("[data-window-defaults=yes]");
    if (!defaults) { return; }
    var now = new Date();
    var opens = defaults.querySelector("input[name=opens]");
    var closes = defaults.querySelector("input[name=closes]");
    if (opens) { opens.value = local(now); }
    if (closes) { closes.value = local(new Date(now.getTime() + 7 * 24 * 3600 * 1000)); }
  });
});
