// Buzzes the phone when your turn comes (a decision that is yours: a turn, a challenge to
// answer) and when you are caught without UNO!, where the device can vibrate.  On by default,
// with a switch in the table's Alerts menu (phone.js), remembered on this device.  The patterns
// are cues.js's; under reduced motion nothing vibrates (buzzFor).

import { buzzFor } from "../cues.js";

export const BUZZ_KEY = "uno.buzz";

function stored() {
  try { return localStorage.getItem(BUZZ_KEY) !== "off"; } catch { return true; }
}

/** Whether this device can vibrate at all (a desktop browser has the method but no motor). */
export function canBuzz() {
  return typeof navigator !== "undefined" && typeof navigator.vibrate === "function";
}

export class Buzzer {
  constructor() {
    this.on = stored();
    this.lastN = null; // the newest log entry seen; null before the first view
  }

  set(on) {
    this.on = on;
    try { localStorage.setItem(BUZZ_KEY, on ? "on" : "off"); } catch { /* private mode */ }
  }

  /** Called with each view and the new call in it (attention.js): buzzes for your turn or being caught. */
  notice(view, call) {
    const log = (view && view.log) || [];
    const first = this.lastN === null;
    const fresh = first ? [] : log.filter((e) => e.n > this.lastN);
    this.lastN = log.reduce((m, e) => Math.max(m, e.n), this.lastN ?? 0);
    const you = view ? view.you : null;
    const caught = you !== null && fresh.some((e) => e.kind === "caught" && e.seat === you);
    const cue = caught ? "caught" : call === "turn" || call === "challenge" ? "turn" : null;
    if (!cue || !this.on || !canBuzz()) return null;
    const reduced = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
    const pattern = buzzFor(cue, reduced);
    if (pattern) navigator.vibrate(pattern);
    return pattern ? cue : null;
  }
}
