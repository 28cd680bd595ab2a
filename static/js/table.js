// The live table: the title follows the table, and while the websocket is down the page
// polls and plays cards over plain HTTP instead (the server answers both the same way).
// Every table update replaces #table; what must outlive a swap (focus, what was said, the
// turn signal) is kept here, keyed by what the new table shows.
(function () {
  var live = false;
  var posting = false;

  function table() {
    return document.getElementById("table");
  }

  // While the socket is down, say so: the page still works, a little slower.
  function setLive(value) {
    live = value;
    document.body.dataset.live = value ? "yes" : "no";
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

  // A card that cannot be played now is focusable but inert: no frame, no POST; the page says
  // why next to the hand, in the server's own words for that card (the hand's data-refusal).
  document.addEventListener("submit", function (event) {
    var submitter = event.submitter;
    if (submitter && submitter.getAttribute("aria-disabled") === "true") {
      event.preventDefault();
      event.stopImmediatePropagation();
      var hand = submitter.closest(".hand");
      sayNear("hand", hand && hand.dataset.refusal);
    }
  }, true);

  // Why something was refused is said next to what was refused: a card or call next to the
  // hand (the dock's note), a chat line next to the chat box. The server's answer comes in the
  // page's one message line (#table-message); it moves next to the last thing sent.
  var lastSent = null;  // "hand" or "chat"
  document.addEventListener("htmx:wsAfterSend", function (event) {
    lastSent = event.target && event.target.id === "chat-form" ? "chat" : "hand";
  });
  function sayNear(where, text) {
    var note = document.querySelector(where === "chat" ? "#chat .chat-note" : "#table .hand-note");
    if (!note || !text) return false;
    note.textContent = text;
    if (where === "hand") fitFelt();
    return true;
  }
  function placeMessage() {
    var message = document.getElementById("table-message");
    if (!message || message.hidden || !message.textContent.trim() || !lastSent) return;
    if (sayNear(lastSent, message.textContent.trim())) {
      message.hidden = true;
      message.textContent = "";
    }
  }
  document.addEventListener("htmx:wsAfterMessage", placeMessage);

  // A form sent while the socket is down goes as a POST right away, not queued for later.
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
    var values = new FormData(form);  // every value, cards marked in the hand each on its own
    if (submitter && submitter.name) values.append(submitter.name, submitter.value);
    var target = form.dataset.target || "#table";
    lastSent = form.id === "chat-form" ? "chat" : "hand";
    htmx.ajax("POST", url, { target: target, swap: "outerHTML", values: values }).finally(function () {
      posting = false;
    });
  });

  // A fair shuffle: a seated player's browser adds its own randomness to the next deal's shuffle,
  // once per deal, as soon as the table shows that deal's commitment (see the Fair play page).
  var contributed = {};
  function randomHex() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function contribute() {
    var state = document.getElementById("table-state");
    var form = document.getElementById("fair-form");
    var commit = state && state.dataset.nextCommit;
    if (!commit || !form || !window.crypto || contributed[commit]) return;
    contributed[commit] = true;
    var value = randomHex();
    try { localStorage.setItem("fair:" + commit, value); } catch (e) {}  // to compare with the deal's record later
    form.elements.commitment.value = commit;
    form.elements.value.value = value;
    htmx.trigger(form, "contribute");
  }
  document.addEventListener("htmx:wsAfterMessage", contribute);
  document.addEventListener("htmx:load", function (event) {
    if (!window.crypto) return;
    event.detail.elt.querySelectorAll("input[data-random]").forEach(function (input) {
      if (!input.value) input.value = randomHex();
    });
  });

  // The draw: the cards to discard are checkboxes in the hand, and one button takes them. Its words
  // follow how many are marked ("Discard 2, draw 2", "Keep my cards"; the page gives them all, in
  // data-marked-0, -1 …), no more may be marked than the stock holds, and the marks outlive a swap
  // of the table at the same move (a push for someone coming online).
  var marked = { seq: null, cards: [] };
  function showMarks(root) {
    var button = root.querySelector(".mark-done");
    if (!button) return;
    var boxes = Array.prototype.slice.call(root.querySelectorAll(".hand input[name=marked]"));
    if (marked.seq === (table() && table().dataset.seq)) {
      boxes.forEach(function (box) { if (marked.cards.indexOf(box.value) >= 0) box.checked = true; });
    }
    var count = boxes.filter(function (box) { return box.checked; }).length;
    var most = Number(button.dataset.most);
    boxes.forEach(function (box) { box.disabled = !box.checked && count >= most; });
    var words = button.getAttribute("data-marked-" + count);
    if (words) button.textContent = words;
  }
  document.addEventListener("change", function (event) {
    if (!event.target.matches || !event.target.matches(".hand input[name=marked]")) return;
    var boxes = document.querySelectorAll(".hand input[name=marked]:checked");
    marked = { seq: table() && table().dataset.seq, cards: Array.prototype.map.call(boxes, function (box) { return box.value; }) };
    showMarks(table());
  });

  // Focus stays where it was across swaps: on the same card, or the hand's first card.
  var focused = null;
  document.addEventListener("focusin", function (event) {
    var element = event.target;
    focused = element.closest && element.closest("#table") ? focusKey(element) : null;
  });
  function focusKey(element) {
    if (element.dataset.card) return '.hand [data-card="' + element.dataset.card + '"]';
    if (element.name && element.value) return '[name="' + element.name + '"][value="' + element.value + '"]';
    if (element.id) return "#" + element.id;
    return ".hand button";
  }
  function keepFocus(root) {
    if (!focused || (document.activeElement && document.activeElement !== document.body)) return;
    var element = root.querySelector(focused) || root.querySelector(".choices button, .hand button.card, .hand .cards input");
    if (element) element.focus({ preventScroll: true });
  }

  // What happened, in words, in the page's one live region: each play, each taken trick, each
  // result, and the viewer's turn. Only what is new since the last table is said.
  var said = null;
  function announce(root) {
    var region = document.getElementById("announcer");
    if (!region) return;
    var first = said === null;
    if (first) said = new Set();
    var news = [];
    root.querySelectorAll("[data-said]").forEach(function (element) {
      var key = element.dataset.saidKey || element.dataset.said;
      if (said.has(key)) return;
      said.add(key);
      news.push(element.dataset.said);
    });
    if (news.length && !first) region.textContent = news.join(" ");
  }

  // Your turn: the tab's title, a short sound (unless switched off) and, if the tab is hidden
  // and the player asked for them, a notification.
  var myTurn = null;
  function signalTurn(root) {
    var now = root.hasAttribute("data-my-turn");
    var began = now && myTurn === false;
    myTurn = now;
    if (!began) return;
    var sound = document.querySelector(".sound-switch button");
    if (!sound || sound.getAttribute("aria-pressed") === "true") beep();
    if (document.hidden && window.Notification && Notification.permission === "granted") {
      var prompt = root.querySelector(".prompt");
      new Notification(root.dataset.title || document.title, { body: prompt ? prompt.textContent : "", tag: "femkort-turn" });
    }
  }
  var audio = null;
  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    var tone = audio.createOscillator();
    var volume = audio.createGain();
    tone.frequency.value = 660;
    volume.gain.setValueAtTime(0.0001, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.15, audio.currentTime + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.3);
    document.body.dataset.turnSounds = String(Number(document.body.dataset.turnSounds || 0) + 1);
  }
  // Browsers start sound only after the page was used: the first click or key unlocks it.
  ["click", "keydown"].forEach(function (type) {
    document.addEventListener(type, function () {
      if (audio && audio.state === "suspended") audio.resume();
    });
  });

  // The felt takes the height left between the table's header and the docked bar, within the
  // limits site.css gives it, so the bar never covers a seat (site.css reads --felt-fit; without
  // JavaScript the felt keeps its largest height). Measured again whenever anything above the
  // felt or the bar itself may have changed; data-fitted says the felt was measured.
  function fitFelt() {
    var root = table();
    var felt = root && root.querySelector(".felt");
    if (!felt) return;
    var dock = root.querySelector(".dock");
    var top = felt.getBoundingClientRect().top + window.scrollY;
    var below = parseFloat(getComputedStyle(felt).marginBottom) || 0;
    var room = window.innerHeight - top - below - (dock ? dock.getBoundingClientRect().height : 0);
    document.documentElement.style.setProperty("--felt-fit", Math.floor(room) + "px");
    felt.dataset.fitted = "";
    // A header too tall to leave the felt its least height: the page scrolls the header away, never
    // letting the bar cover the seats (the bar is sticky; the felt's bottom goes just above it).
    if (dock) {
      var covered = felt.getBoundingClientRect().bottom + below - dock.getBoundingClientRect().top;
      if (covered > 0.5) window.scrollBy(0, Math.ceil(covered));
    }
    fittedTo = { width: window.innerWidth, height: window.innerHeight };
  }
  // A phone's window grows a little as its browser's bars hide on scrolling, and the felt need
  // not follow that (so it does not jump); a narrower, shorter or much taller window is measured.
  var fittedTo = { width: 0, height: 0 };
  window.addEventListener("resize", function () {
    var height = window.innerHeight;
    if (window.innerWidth !== fittedTo.width || height < fittedTo.height || height > fittedTo.height + 150) fitFelt();
  });
  document.addEventListener("htmx:wsOpen", fitFelt);
  document.addEventListener("htmx:wsClose", fitFelt);

  function tableShown(root) {
    showMarks(root);
    if (root.dataset.title) document.title = root.dataset.title;
    if (root.dataset.now) skew = Number(root.dataset.now) - Date.now();
    tick();
    keepFocus(root);
    announce(root);
    signalTurn(root);
  }
  document.addEventListener("htmx:load", function (event) {
    fitFelt();
    var root = table();
    if (root) showMarks(root);  // the hand may be swapped alone
    if (!root || !(event.detail.elt === root || event.detail.elt.contains(root))) return;
    tableShown(root);
  });
  // A frame of only the regions that changed leaves #table in place: its state (the sequence
  // number, whose turn, the title) comes in #table-state, and is copied onto it here.
  var STATE = ["seq", "now", "title"];
  document.addEventListener("htmx:wsAfterMessage", function () {
    var root = table();
    var state = document.getElementById("table-state");
    if (!root || !state || root.dataset.seq === state.dataset.seq) return;
    STATE.forEach(function (name) { if (name in state.dataset) root.dataset[name] = state.dataset[name]; });
    root.toggleAttribute("data-my-turn", state.hasAttribute("data-my-turn"));
    fitFelt();
    tableShown(root);
  });

  // Keys: 1–9 play that card of the hand, arrows move along the hand, Enter plays the focused card.
  document.addEventListener("keydown", function (event) {
    var root = table();
    if (!root || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target.closest && target.closest("input:not([type=checkbox]), textarea, select, [contenteditable]")) return;
    // A card of the hand: a button to play it, or in the draw a checkbox to mark it.
    var cards = Array.prototype.slice.call(root.querySelectorAll(".hand button.card, .hand .cards input"));
    if (!cards.length) return;
    if (/^[1-9]$/.test(event.key)) {
      var card = cards[Number(event.key) - 1];
      if (card) {
        event.preventDefault();
        card.focus();
        card.click();
      }
      return;
    }
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    var at = cards.indexOf(document.activeElement);
    var step = event.key === "ArrowRight" ? 1 : -1;
    var next = at < 0 ? 0 : (at + step + cards.length) % cards.length;
    event.preventDefault();
    cards[next].focus();
  });

  // Turn clocks count down to the server's deadline, corrected by how far this device's clock
  // is from the server's (each table view says the server's time when it was made).
  var skew = 0;
  function tick() {
    var clocks = document.querySelectorAll(".clock[data-deadline]");
    clocks.forEach(function (clock) {
      var left = Math.max(0, Math.ceil((Number(clock.dataset.deadline) - Date.now() - skew) / 1000));
      if (left > 120 && clock.dataset.by) {  // a turn-based deadline: its day and time, in the player's zone
        clock.textContent = clock.dataset.by.replace("#", deadlineSaid(Number(clock.dataset.deadline)));
        return;
      }
      clock.textContent = (clock.dataset.format || "# s").replace("#", left);  // the page's words: "29 s", "29 с"
      clock.classList.toggle("short", left <= 5);
    });
  }
  setInterval(tick, 250);

  function deadlineSaid(at) {
    var options = {weekday: "short", hour: "2-digit", minute: "2-digit"};
    var zone = document.documentElement.dataset.zone;
    if (zone) options.timeZone = zone;
    try {
      return new Date(at).toLocaleString(document.documentElement.lang || undefined, options);
    } catch (error) {  // a zone this browser does not know: its own
      delete options.timeZone;
      return new Date(at).toLocaleString(undefined, options);
    }
  }

  // Chat: the box keeps a line until it comes back in the log as yours (a refused line stays,
  // to send again, with the reason beside the box); a new line scrolls the log to the end and,
  // while the chat is out of sight, counts as unread in the table's tools.
  document.addEventListener("htmx:load", function (event) {
    var log = document.getElementById("chat-log");
    if (!log || !(event.detail.elt === log || log.contains(event.detail.elt) || event.detail.elt.contains(log))) return;
    log.scrollTop = log.scrollHeight;
    var line = event.detail.elt.matches && event.detail.elt.matches("#chat-log > li") ? event.detail.elt : null;
    if (!line && event.detail.elt.querySelector) line = event.detail.elt.querySelector("#chat-log > li:last-child");
    if (!line || event.detail.elt.contains(log)) return;  // a whole chat box: nothing new to count
    var box = document.getElementById("chat-text");
    var said = line.querySelector(".said");
    if (line.hasAttribute("data-mine")) {
      // The line in the box came back: it was taken. (An earlier line of yours may come back
      // after a later one was refused: the refused one and its reason stay.)
      if (box && said && words(box.value) === words(said.textContent)) {
        box.form.reset();
        var note = document.querySelector("#chat .chat-note");
        if (note) note.textContent = "";
      }
    } else {
      countUnread(1);
    }
  });
  function words(text) {
    return text.replace(/\s+/g, " ").trim();  // as the server stores a line
  }
  var unread = 0;
  var chatSeen = true;
  function countUnread(more) {
    var mark = document.querySelector(".chat-unread");
    if (!mark) return;
    unread = chatSeen ? 0 : unread + more;
    mark.hidden = unread === 0;
    mark.textContent = mark.dataset.format.replace("#", unread);
  }
  var watcher = window.IntersectionObserver ? new IntersectionObserver(function (entries) {
    chatSeen = entries[entries.length - 1].isIntersecting;
    if (chatSeen) countUnread(0);
  }) : null;
  function watchChat() {
    // The log's newest lines sit right above the writing form: the chat is seen while that is.
    var chat = document.getElementById("chat-form") || document.getElementById("chat");
    if (!watcher || !chat) return;
    watcher.disconnect();
    watcher.observe(chat);  // the box is swapped whole when the host turns chat on or off
  }
  document.addEventListener("DOMContentLoaded", watchChat);
  document.addEventListener("htmx:load", function (event) {
    if (event.detail.elt.id === "chat") watchChat();
  });

  // Buttons that need JavaScript are hidden in the markup and shown here.
  document.addEventListener("DOMContentLoaded", function () {
    // The language switch changes on choosing; its button is for pages without JavaScript.
    document.querySelectorAll(".language-switch").forEach(function (form) {
      var button = form.querySelector("button");
      if (button) button.hidden = true;
      form.querySelector("select").addEventListener("change", function () { form.submit(); });
    });
    document.querySelectorAll(".copy-invite").forEach(function (button) {
      if (!navigator.clipboard) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(button.dataset.copy).then(function () {
          button.textContent = button.dataset.done;
        });
      });
    });
    document.querySelectorAll(".notify-me").forEach(function (button) {
      if (!window.Notification || Notification.permission !== "default") return;
      button.hidden = false;
      button.addEventListener("click", function () {
        Notification.requestPermission().then(function (answer) {
          button.hidden = answer !== "granted";
          button.disabled = true;
          button.textContent = button.dataset.asked;
        });
      });
    });
  });

  // A player's news (an invitation) arrives as a toast on any page: it can be closed, and if
  // the player allowed browser notifications and the tab is hidden, it is also notified.
  function watchToasts() {
    var toasts = document.getElementById("toasts");
    if (!toasts) return;
    toasts.addEventListener("click", function (event) {
      var close = event.target.closest(".toast-close");
      if (close) close.closest(".toast").remove();
    });
    new MutationObserver(function () {
      toasts.querySelectorAll(".toast:not([data-seen])").forEach(function (toast) {
        toast.dataset.seen = "1";
        var close = toast.querySelector(".toast-close");
        if (close) close.hidden = false;
        if (toast.dataset.notify && document.hidden && window.Notification && Notification.permission === "granted") {
          new Notification("Femkort Online", { body: toast.dataset.notify, tag: toast.id });
        }
      });
    }).observe(toasts, { childList: true });
  }
  document.addEventListener("DOMContentLoaded", watchToasts);

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
