// The service worker (femkort_site/webapp.py renders it at /sw.js): the offline page when the
// network is gone, and "your turn" notifications by Web Push.
//
// Private pages are never stored: the cache holds CONFIG.precache (the offline page, drawn as for
// a visitor, and a few static files) and nothing else, ever. Pages, fragments, JSON and polls go
// to the network as if there were no worker; websockets never pass through a worker.
"use strict";

const CONFIG = {{ config|safe }};

self.addEventListener("install", (event) => {
  // "reload": past the HTTP cache, so the offline page is the current version's.
  const requests = CONFIG.precache.map((url) => new Request(url, { cache: "reload" }));
  event.waitUntil(
    caches
      .open(CONFIG.cache)
      .then((cache) => cache.addAll(requests))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names.filter((name) => name.startsWith(CONFIG.prefix) && name !== CONFIG.cache).map((name) => caches.delete(name)),
      );
      // A page's request goes out while the worker starts, instead of after it.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(event));
  } else if (url.pathname.startsWith(CONFIG.static)) {
    // Static files change name when they change (production); the cache holds only the precached ones.
    event.respondWith(caches.match(request, { cacheName: CONFIG.cache }).then((hit) => hit || fetch(request)));
  }
});

// A page from the network, always; only when there is no network at all, the offline page.
// An answer with an error status is still the server's answer, and is shown.
async function pageOrOffline(event) {
  try {
    return (await event.preloadResponse) || (await fetch(event.request));
  } catch (error) {
    const offline = await caches.match(CONFIG.offline, { cacheName: CONFIG.cache });
    if (offline) return offline;
    throw error;
  }
}

// {"title", "body", "url" (a path on the site), "tag"}: a newer message with the same tag (the
// same table) replaces the older one, and still alerts.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data.text() };
  }
  const options = { body: message.body || "", data: { url: sitePath(message.url) }, icon: CONFIG.icon, badge: CONFIG.badge };
  if (message.tag) Object.assign(options, { tag: message.tag, renotify: true }); // renotify without a tag is an error
  event.waitUntil(self.registration.showNotification(message.title || CONFIG.title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sitePath(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => client.url === url);
      if (open) return open.focus();
      return self.clients.openWindow(url);
    })(),
  );
});

// A notification opens only a page of this site, whatever the message said.
function sitePath(path) {
  try {
    const url = new URL(path || "/", self.location.origin);
    if (url.origin === self.location.origin) return url.href;
  } catch {
    // not a URL at all: the lobby
  }
  return new URL("/", self.location.origin).href;
}
