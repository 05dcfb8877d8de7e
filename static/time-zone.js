// A time-zone field left empty is filled with the browser's own zone (an IANA name such as
// Asia/Taipei), so the window an instructor types is read in the zone they are in.
document.addEventListener("DOMContentLoaded", function () {
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
  document.querySelectorAll("input[data-browser-time-zone]").forEach(function (input) {
    if (!input.value && zone) { input.value = zone; }
  });
});
