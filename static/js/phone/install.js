// On every page (templates/base.html): registers the service worker (static/sw.js, served at
// /sw.js so that its scope is the whole site) and offers "Install" in the header when the
// browser says the site can be installed (`beforeinstallprompt`).  Both need a secure context
// (HTTPS, or localhost): on a plain-http LAN address (`http://192.168.…`) nothing here runs and
// the button stays hidden — the pages play exactly as without it.  No imports: the offline page
// loads this from the worker's cache alone.

/** Whether installing, the worker, wake lock and notifications can work on this page at all. */
export function secure() {
  return typeof window !== "undefined" && window.isSecureContext === true;
}

/** Registers the worker; resolves to its registration, or null where there can be none. */
export function registerWorker() {
  if (!secure() || !("serviceWorker" in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
}

let offered = null; // the browser's install prompt, kept until the button is pressed

function showButton() {
  const button = document.getElementById("install-app");
  if (!button) return;
  button.hidden = !offered;
  button.onclick = async () => {
    const prompt = offered;
    if (!prompt) return;
    offered = null; // a prompt can be shown once
    button.hidden = true;
    prompt.prompt();
    try { await prompt.userChoice; } catch { /* dismissed */ }
  };
}

if (secure()) {
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // our own button, not the browser's mini-bar, offers it
    offered = event;
    showButton();
  });
  window.addEventListener("appinstalled", () => { offered = null; showButton(); });
  // After the page has loaded: the worker's first fetch of the shell never delays the page's own.
  if (document.readyState === "complete") registerWorker();
  else window.addEventListener("load", () => registerWorker(), { once: true });
}
