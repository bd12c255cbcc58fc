// Sound cues at the table: off unless the player turns them on (one toggle, remembered in
// localStorage).  Sounds are synthesised with the Web Audio API (sounds.js, no files); the
// AudioContext is made only once cues are on, so nothing plays before a gesture allows it.
// Under reduced motion nothing sounds (sounds.js).  Vibration is the
// phone's own setting (phone/buzz.js, on by default), with the patterns `buzzFor` gives here.
// `pickCues` has no DOM and is unit-tested in tests/js/.
import { t } from "./i18n.js";
import { audible, SOUNDS } from "./sounds.js";

export const CUES_KEY = "uno.cues";

// Vibration patterns (ms) for the cues that have one.
const BUZZ = { turn: [30], caught: [60, 50, 60] };

/**
 * The cues a new view calls for, in order, each once: `entries` are the log entries not seen
 * before, `you` your seat (null when watching), `wasTurn` / `isTurn` whether the pending decision
 * was and is yours.  "card": a card played; "uno": someone said UNO!; "caught": you were caught;
 * "slide": you drew a card by choice; "draw": you must draw (any other draw but being caught's);
 * "turn": it has just become your turn.
 */
export function pickCues(entries, you, wasTurn, isTurn) {
  const cues = [];
  const add = (cue) => { if (!cues.includes(cue)) cues.push(cue); };
  for (const e of entries || []) {
    if (e.kind === "play") add("card");
    else if (e.kind === "uno") add("uno");
    else if (you !== null && e.seat === you && e.kind === "caught") add("caught");
    else if (you !== null && e.seat === you && e.kind === "draw" && e.count > 0 && e.reason === "turn") add("slide");
    else if (you !== null && e.seat === you && e.kind === "draw" && e.count > 0 && e.reason !== "caught") add("draw");
  }
  if (you !== null && isTurn && !wasTurn) add("turn");
  return cues;
}

/** Whether a cue vibrates: only your turn and being caught, only when motion is welcome. */
export function buzzFor(cue, reducedMotion) {
  return reducedMotion ? null : BUZZ[cue] || null;
}

function stored() {
  try { return localStorage.getItem(CUES_KEY) === "on"; } catch { return false; }
}

function store(on) {
  try { localStorage.setItem(CUES_KEY, on ? "on" : "off"); } catch { /* private mode */ }
}

/** A loudspeaker, drawn (an icon, not a word): struck through by the stylesheet when off. */
function speaker() {
  const NS = "http://www.w3.org/2000/svg";
  const el = (tag, attrs) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };
  const svg = el("svg", { viewBox: "0 0 16 16", width: "16", height: "16", focusable: "false" });
  svg.append(el("path", { d: "M2 6h3l4-3v10l-4-3H2z", fill: "currentColor" }),
    el("path", { d: "M11 5.5a3.5 3.5 0 0 1 0 5M12.8 3.5a6.2 6.2 0 0 1 0 9", fill: "none", stroke: "currentColor", "stroke-width": "1.5", "stroke-linecap": "round" }));
  return svg;
}

/** The sound cues of one room page: the toggle, and what each new view should sound like. */
export class Cues {
  constructor() {
    this.on = stored();
    this.ctx = null;
    this.out = null;
    this.lastN = null; // the newest log entry seen; null before the first view
    this.wasTurn = false;
    this.button = null;
    // A context made without a gesture (cues on from an earlier visit) waits for one.
    const wake = () => { if (this.ctx && this.ctx.state === "suspended") this.ctx.resume().catch(() => {}); };
    document.addEventListener("pointerdown", wake, true);
    document.addEventListener("keydown", wake, true);
  }

  /** The one toggle button (aria-pressed), made once and moved between waiting room and table. */
  toggle() {
    if (this.button) return this.button;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn btn-small cue-toggle";
    b.dataset.testid = "cue-toggle";
    b.title = t("cues.toggle");
    const icon = document.createElement("span");
    icon.className = "cue-icon";
    icon.setAttribute("aria-hidden", "true");
    icon.append(speaker());
    const label = document.createElement("span");
    label.className = "cue-label";
    label.textContent = t("cues.toggle");
    b.append(icon, label);
    b.addEventListener("click", () => this.set(!this.on));
    this.button = b;
    this.show();
    return b;
  }

  show() {
    if (this.button) this.button.setAttribute("aria-pressed", this.on ? "true" : "false");
  }

  set(on) {
    this.on = on;
    store(on);
    this.show();
    if (on) {
      this.audio(); // made in the click itself, so the browser lets it play
    } else if (this.ctx && this.ctx.state === "running") {
      this.ctx.suspend().catch(() => {});
    }
  }

  audio() {
    const Ctx = typeof window !== "undefined" ? window.AudioContext || window.webkitAudioContext : null;
    if (!this.ctx && Ctx) {
      try {
        this.ctx = new Ctx();
        this.out = this.ctx.createGain();
        this.out.gain.value = 0.25;
        this.out.connect(this.ctx.destination);
      } catch { this.ctx = null; }
    }
    if (this.ctx && this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
    return this.ctx;
  }

  /** Called with each new view: plays what changed since the last one (nothing on the first). */
  notice(view, isTurn) {
    const log = (view && view.log) || [];
    const newest = log.reduce((m, e) => Math.max(m, e.n), 0);
    const first = this.lastN === null;
    const fresh = first ? [] : log.filter((e) => e.n > this.lastN);
    const wasTurn = first ? !!isTurn : this.wasTurn;
    this.lastN = Math.max(this.lastN ?? 0, newest);
    this.wasTurn = !!isTurn;
    if (!this.on) return [];
    const cues = pickCues(fresh, view ? view.you : null, wasTurn, !!isTurn);
    if (!cues.length) return cues;
    this.play(cues);
    return cues;
  }

  play(cues) {
    const reduced = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
    const sounds = audible(cues, reduced);
    const ctx = sounds.length ? this.audio() : null;
    if (ctx) {
      let at = ctx.currentTime + 0.02;
      for (const cue of sounds) {
        SOUNDS[cue](ctx, this.out, at);
        at += 0.18;
      }
    }
  }
}
