// The service worker (served at /sw.js by app/web/pwa.py, so its scope is the whole site).
// It makes the site installable and says so plainly when the server cannot be reached: a
// page asked for while offline gets the offline page, and the client's own files (styles,
// scripts, catalogues, icons) come from the cache when the network fails.  Network first,
// always: a reachable server's answer wins, so a page never runs an old release's scripts.
// The cache is named by the release (the server writes a digest of its client files in place
// of __RELEASE__), and the caches of other releases are deleted when this worker takes over.
//
// Never cached: room data, /api answers, sockets (a worker never sees them), the match
// downloads, QR codes, pages themselves (only the offline page) and static/vendor/ (Pyodide,
// 9.6 MB, which the browser's HTTP cache keeps for a year instead).
const RELEASE = "__RELEASE__";
const CACHE = `uno-${RELEASE}`;
const OFFLINE = "/offline";
// What the offline page needs, fetched when the worker installs.
const SHELL = [
  OFFLINE,
  "/static/css/app.css", "/static/css/players.css", "/static/css/summary.css",
  "/static/css/reactions.css", "/static/css/rules_sheet.css", "/static/css/sheet.css",
  "/static/css/controller.css", "/static/css/away.css", "/static/css/phone.css",
  "/static/js/pages/offline.js", "/static/js/phone/install.js",
  "/static/img/icon.svg", "/static/img/icon-192.png", "/manifest.webmanifest",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith("uno-") && n !== CACHE).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

/** Whether a same-origin GET may be kept: the client's own files, never vendor/ or data. */
function keepable(url) {
  if (url.pathname === "/manifest.webmanifest") return true;
  return url.pathname.startsWith("/static/") && !url.pathname.startsWith("/static/vendor/");
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") cache.put(request, response.clone());
    return response;
  } catch (err) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw err;
  }
}

async function page(request) {
  try {
    return await fetch(request);
  } catch (err) {
    const offline = await caches.match(OFFLINE, { cacheName: CACHE });
    if (offline) return offline;
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (keepable(url)) event.respondWith(networkFirst(request));
  // Anything else (/api, /rooms/…/qr.svg, /matches/…, vendor/) goes to the network untouched.
});

// A notification of your turn (notify.js, on browsers that show them through the worker):
// a tap brings the table's tab to the front, or opens the room if the tab is gone.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((clients) => {
    const open = clients.find((c) => new URL(c.url).pathname === new URL(target, self.location.origin).pathname);
    return open ? open.focus() : self.clients.openWindow(target);
  }));
});
