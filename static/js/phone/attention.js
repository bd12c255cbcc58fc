// What at the table calls for you while you may be looking elsewhere, as data (no DOM; tested
// under Node in tests/js/attention.test.mjs).  The phone's aids (phone.js) act on it: a buzz when
// your turn comes, and, while the page is out of sight, a notification, the tab's title and its
// icon.

/**
 * What the view asks of you now: "challenge" (a Wild Draw Four to accept or challenge), "turn"
 * (any other decision that is yours), "catch" (someone you may catch for not saying UNO!), or
 * null (nothing; watching; between rounds).  At a no-hints table (HR-32, frames without `legal`)
 * a chance to catch is never announced: that would be the very hint the table does without.
 */
export function attentionOf(view) {
  if (!view || view.you === null || view.you === undefined || !view.game) return null;
  if (!view.room || view.room.status !== "playing") return null;
  const tbl = view.game.table;
  if (!tbl) return null;
  const pending = tbl.pending;
  if (pending && pending.seat === view.you) return pending.kind === "challenge" ? "challenge" : "turn";
  if (Array.isArray(tbl.legal) && tbl.legal.some((a) => a.kind === "catch")) return "catch";
  return null;
}

/** The seat a catch would be against (for the notification's words), or null. */
export function catchTarget(view) {
  const legal = view && view.game && view.game.table && view.game.table.legal;
  const a = Array.isArray(legal) ? legal.find((x) => x.kind === "catch") : null;
  return a ? a.target : null;
}

/**
 * Follows the attention from view to view and says when a new call arrives: the first view
 * (a page opened, a reload) announces nothing, and a call already announced is not announced
 * again while it lasts (your turn that carries on after a card drawn is one call).
 */
export class AttentionTracker {
  constructor() {
    this.current = undefined; // undefined before the first view
  }

  /** The new call in `view` ("turn", "challenge", "catch"), or null when nothing new calls. */
  update(view) {
    const now = attentionOf(view);
    const before = this.current;
    this.current = now;
    if (before === undefined || now === null || now === before) return null;
    return now;
  }
}

/** The tab's title while something calls for you out of sight: "● Your turn · Room · UNO Table". */
export function attentionTitle(base, label) {
  return label ? `● ${label} · ${base.replace(/^● [^·]*· /, "")}` : base;
}
