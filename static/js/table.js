// The live table: the title follows the table, and while the websocket is down the page
// polls and plays cards over plain HTTP instead (the server answers both the same way).
(function () {
  var live = false;
  var posting = false;

  document.addEventListener("htmx:load", function () {
    var table = document.getElementById("table");
    if (table && table.dataset.title) document.title = table.dataset.title;
  });

  // While the socket is down, say so: the page still works, a little slower.
  function setLive(value) {
    live = value;
    var notice = document.getElementById("live-status");
    if (notice) notice.hidden = value;
  }
  document.addEventListener("htmx:wsOpen", function () { setLive(true); });
  document.addEventListener("htmx:wsClose", function () { setLive(false); });
  document.addEventListener("htmx:wsError", function () { setLive(false); });

  // The table polls every few seconds as a fallback; with a live socket the pushes are enough.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var source = event.detail.elt;
    if (live && source && source.id === "table" && event.detail.requestConfig.verb === "get") {
      event.preventDefault();
    }
  });

  // A card chosen while the socket is down goes as a POST right away, not queued for later.
  document.addEventListener("htmx:wsConfigSend", function (event) {
    if (live) return;
    event.preventDefault();
    var form = event.detail.triggeringEvent && event.detail.triggeringEvent.target;
    var submitter = event.detail.triggeringEvent && event.detail.triggeringEvent.submitter;
    if (event.detail.triggeringEvent) event.detail.triggeringEvent.preventDefault();
    // form.action would be the hidden input named "action" (the websocket message's field), not the URL.
    var url = form && form.getAttribute("action");
    if (!url) return;
    if (posting) return;  // a double click: the first card is on its way
    posting = true;
    var values = {};
    new FormData(form).forEach(function (value, key) { values[key] = value; });
    if (submitter && submitter.name) values[submitter.name] = submitter.value;
    htmx.ajax("POST", url, { target: "#table", swap: "outerHTML", values: values }).finally(function () {
      posting = false;
    });
  });

  // Turn clocks count down to the server's deadline, corrected by how far this device's clock
  // is from the server's (each table view says the server's time when it was made).
  var skew = 0;
  document.addEventListener("htmx:load", function () {
    var table = document.getElementById("table");
    if (table && table.dataset.now) skew = Number(table.dataset.now) - Date.now();
    tick();
  });
  function tick() {
    var clocks = document.querySelectorAll(".clock[data-deadline]");
    clocks.forEach(function (clock) {
      var left = Math.max(0, Math.ceil((Number(clock.dataset.deadline) - Date.now() - skew) / 1000));
      clock.textContent = left + " s";
      clock.classList.toggle("short", left <= 5);
    });
  }
  setInterval(tick, 250);

  // Lobby form: an option that only matters when another is on (a pot's starting chips) is
  // hidden while that one is off; without JavaScript it simply shows, and is ignored.
  function showNeeded() {
    document.querySelectorAll("[data-needs]").forEach(function (input) {
      var needed = input.form && input.form.elements[input.dataset.needs];
      var wrapper = input.closest("div");
      if (needed && wrapper) wrapper.hidden = !needed.checked;
    });
  }
  document.addEventListener("change", showNeeded);
  document.addEventListener("DOMContentLoaded", showNeeded);
})();
