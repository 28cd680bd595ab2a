// Arrow keys (and Home/End) step through a replay by following the matching link.
document.addEventListener("keydown", function (event) {
  if (event.target.closest("input, select, textarea")) return;
  var link = document.querySelector('.replay-controls a[data-key="' + event.key + '"]');
  if (link) { event.preventDefault(); window.location.assign(link.href); }
});
