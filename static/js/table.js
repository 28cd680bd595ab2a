// Keep the page title in step with the live table ("Your turn · ..."), whichever way it was updated.
document.addEventListener("htmx:load", function (event) {
  var table = document.getElementById("table");
  if (table && table.dataset.title) document.title = table.dataset.title;
});
