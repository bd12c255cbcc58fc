// The offline page (templates/offline.html), which the service worker shows for any page asked
// for while the server cannot be reached.  Its words come with the page (the worker keeps it);
// it imports nothing, so that it works from the worker's cache alone.  "Try again" loads the
// page again at once; by itself it comes back as soon as the server answers again — checked
// when the browser says it is online (which it may say a moment before the network carries
// anything) and every few seconds.
const EVERY_MS = 5000;

async function reachable() {
  try {
    const r = await fetch("/healthz", { cache: "no-store" }); // never from the worker's cache
    return r.ok;
  } catch {
    return false;
  }
}

async function check() {
  if (await reachable()) location.reload();
}

document.getElementById("offline-retry").addEventListener("click", () => location.reload());
window.addEventListener("online", () => { check(); setTimeout(check, 1000); });
setInterval(check, EVERY_MS);
