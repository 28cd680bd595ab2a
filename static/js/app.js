// The site as an app (every page loads this, deferred): registers the service worker, offers
// "Install" when the browser would install the site, brings the real page back in place of the
// offline page when the network returns, and turns "your turn" notifications on and off in this browser.
//
// The notifications switch is rendered by the server (the Settings page), with its texts in the
// viewer's language; this script only works it. Expected markup:
//
//   <div data-push-switch
//        data-vapid-key="BNc…(the VAPID public key, base64url)"
//        data-subscribe-url="/push/subscribe/"
//        data-unsubscribe-url="/push/unsubscribe/"
//        data-text-on="Notifications are on in this browser."
//        data-text-off="Notifications are off in this browser."
//        data-text-denied="This browser blocks the site's notifications: allow them in its settings."
//        data-text-unsupported="This browser cannot show the site's notifications."
//        data-text-failed="Notifications could not be turned on. Try again later.">   (optional; else text-off)
//     <button type="button" data-push-on>Turn on</button>
//     <button type="button" data-push-off>Turn off</button>
//     <p data-push-status role="status"></p>
//   </div>
//
// data-vapid-key is the VAPID application server key: the public key's 65 bytes in base64url.
// "On" asks for permission, subscribes with that key and POSTs the subscription's toJSON()
// ({"endpoint", "expirationTime", "keys": {"p256dh", "auth"}}) to data-subscribe-url; "off"
// unsubscribes and POSTs {"endpoint"} to data-unsubscribe-url. Both POSTs are JSON and carry
// X-CSRFToken from <body hx-headers> (base.html). A 2xx answer is success; on any other the
// browser's subscription is dropped again, so that browser and server agree it is off.
// The script sets data-push-state on the switch (on, off, denied, unsupported or failed) for
// styles and tests, and disables "on" while it is on, denied or unsupported, "off" unless subscribed.
"use strict";

(function () {
  const script = document.currentScript; // only while this runs, not in the handlers below

  // --- The service worker ------------------------------------------------------------------
  if ("serviceWorker" in navigator) {
    const url = (script && script.dataset.serviceWorker) || "/sw.js";
    // After the page's own loading, which matters more than the worker's.
    window.addEventListener("load", () => {
      navigator.serviceWorker.register(url).catch(() => {}); // offline, or a refusing browser: the site works without
    });
  }

  // --- Install -------------------------------------------------------------------------------
  // Chromium's browsers say when the site could be installed; the header's button appears only then.
  const installButton = document.getElementById("install-app");
  let installPrompt = null;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // no mini-infobar: the button asks instead
    installPrompt = event;
    if (installButton) installButton.hidden = false;
  });
  if (installButton) {
    installButton.addEventListener("click", () => {
      if (!installPrompt) return;
      installPrompt.prompt(); // once per event: the browser fires another when it may ask again
      installPrompt = null;
      installButton.hidden = true;
    });
  }
  window.addEventListener("appinstalled", () => {
    installPrompt = null;
    if (installButton) installButton.hidden = true;
  });

  // --- The offline page --------------------------------------------------------------------
  // The service worker shows it at the address that failed; it comes back by itself. At once when
  // the browser says it is online again, else at the server's first answer to a small request
  // (the manifest: no page rendered, not taken from the worker's cache), every few seconds while
  // the page is in view: a browser on a network cut off beyond the router thinks it is online.
  const offline = document.querySelector("[data-offline]");
  if (offline && window.location.pathname !== offline.dataset.offline) {
    const manifest = document.querySelector('link[rel="manifest"]');
    const back = () => window.location.reload();
    window.addEventListener("online", back);
    setInterval(() => {
      if (document.hidden || !manifest) return;
      fetch(manifest.href, { method: "HEAD", cache: "no-store" }).then((answer) => answer.ok && back(), () => {});
    }, 5000);
  }

  // --- Notifications ---------------------------------------------------------------------------
  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch {
      return "";
    }
  }

  function postJson(url, data) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(data),
    });
  }

  // The key as the Push API wants it: base64url (no padding) to bytes.
  function keyBytes(base64url) {
    const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
    return Uint8Array.from(atob(padded), (character) => character.charCodeAt(0));
  }

  function sameBytes(buffer, bytes) {
    const other = new Uint8Array(buffer);
    return other.length === bytes.length && other.every((value, index) => value === bytes[index]);
  }

  function pushSupported() {
    return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  }

  function pushSwitch(box) {
    const on = box.querySelector("[data-push-on]");
    const off = box.querySelector("[data-push-off]");
    const status = box.querySelector("[data-push-status]");

    const texts = {
      on: box.dataset.textOn,
      off: box.dataset.textOff,
      denied: box.dataset.textDenied,
      unsupported: box.dataset.textUnsupported,
      failed: box.dataset.textFailed || box.dataset.textOff,
    };

    // state: a key of texts; "off" stays usable while this browser is subscribed (to drop it).
    function show(state, subscribed) {
      if (status) status.textContent = texts[state] || "";
      box.dataset.pushState = state;
      if (on) on.disabled = state === "on" || state === "denied" || state === "unsupported";
      if (off) off.disabled = !subscribed;
    }

    async function current() {
      const registration = await navigator.serviceWorker.getRegistration();
      return registration ? registration.pushManager.getSubscription() : null;
    }

    async function turnOn() {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") return show(permission === "denied" ? "denied" : "off", Boolean(await current()));
      const key = keyBytes(box.dataset.vapidKey);
      const registration = await navigator.serviceWorker.ready;
      let subscription = await registration.pushManager.getSubscription();
      const keyOf = subscription && subscription.options && subscription.options.applicationServerKey;
      if (keyOf && !sameBytes(keyOf, key)) {
        await subscription.unsubscribe(); // made for another server key: the server could not use it
        subscription = null;
      }
      subscription = subscription || (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
      let response = null;
      try {
        response = await postJson(box.dataset.subscribeUrl, subscription.toJSON());
      } catch {
        // offline: as a refusal
      }
      if (response && response.ok) return show("on", true);
      await subscription.unsubscribe();
      return show("failed", false);
    }

    async function turnOff() {
      const subscription = await current();
      if (subscription) {
        const endpoint = subscription.endpoint;
        await subscription.unsubscribe(); // first: whatever the server hears, this browser gets nothing more
        await postJson(box.dataset.unsubscribeUrl, { endpoint }).catch(() => {});
      }
      show(Notification.permission === "denied" ? "denied" : "off", false);
    }

    function guarded(action) {
      return async () => {
        if (on) on.disabled = true;
        if (off) off.disabled = true;
        try {
          await action();
        } catch {
          show("failed", Boolean(await current().catch(() => null)));
        }
      };
    }

    if (!pushSupported()) return show("unsupported", false);
    if (on) on.addEventListener("click", guarded(turnOn));
    if (off) off.addEventListener("click", guarded(turnOff));
    // What this browser is now (another tab, or the browser's settings, may have changed it).
    current()
      .then((subscription) => {
        if (Notification.permission === "denied") show("denied", Boolean(subscription));
        else show(subscription && Notification.permission === "granted" ? "on" : "off", Boolean(subscription));
      })
      .catch(() => show("off", false));
  }

  document.querySelectorAll("[data-push-switch]").forEach(pushSwitch);

  // --- Time zone ---------------------------------------------------------------------------------
  // Settings' time zone, never chosen yet: offer this device's (the player still saves it).
  const zone = document.querySelector("select[name=time_zone]");
  if (zone && !zone.value) {
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (own && zone.querySelector(`option[value="${CSS.escape(own)}"]`)) zone.value = own;
  }
})();
