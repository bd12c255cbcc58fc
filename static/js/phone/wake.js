// Keeps the screen on while the table is shown (the Screen Wake Lock API, where the browser has
// it and the page is a secure context): a phone laid on the sofa must not go dark between turns.
// The browser drops the lock whenever the page is hidden; it is asked for again when the page is
// seen again, and let go when the player leaves the table (waiting room, summary page gone, a
// page left).  Where there is no wake lock nothing happens, and the table plays as ever.

export class WakeKeeper {
  constructor(nav = navigator, doc = document) {
    this.nav = nav;
    this.doc = doc;
    this.wanted = false; // the table is shown
    this.sentinel = null;
    this.asking = null; // a request in flight
    doc.addEventListener("visibilitychange", () => this.sync());
  }

  supported() {
    return !!(this.nav.wakeLock && typeof this.nav.wakeLock.request === "function") && window.isSecureContext === true;
  }

  /** Whether the screen should be kept on: true at the table, false anywhere else. */
  want(on) {
    if (this.wanted === on) return;
    this.wanted = on;
    this.sync();
  }

  sync() {
    const visible = this.doc.visibilityState === "visible";
    if (this.wanted && visible) this.acquire();
    else this.release();
  }

  acquire() {
    if (!this.supported() || this.asking || (this.sentinel && !this.sentinel.released)) return;
    this.asking = this.nav.wakeLock.request("screen").then((sentinel) => {
      this.asking = null;
      this.sentinel = sentinel;
      // The browser releases it on its own (the page hidden, the battery low): forget it then.
      sentinel.addEventListener("release", () => { if (this.sentinel === sentinel) this.sentinel = null; });
      // Hidden or left the table while the request was on its way: let it go at once.
      if (!this.wanted || this.doc.visibilityState !== "visible") this.release();
    }).catch(() => { this.asking = null; }); // refused (no permission, power saver): play on
  }

  release() {
    const sentinel = this.sentinel;
    this.sentinel = null;
    if (sentinel && !sentinel.released) sentinel.release().catch(() => {});
  }
}
