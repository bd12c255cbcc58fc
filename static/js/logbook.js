// The room's event log as a person would tell it: one line for each thing that happened.
// The server keeps a public log and, for each seat, the private side of some events (the cards
// you drew, the card passed to you).  The engine records such an event twice, public then
// private, one number apart; told both ways the log would say "Ana drew a card." and then
// "You drew yellow 3.", so the private line stands in for its public twin.  The fairness
// entries (a round's published commitment and its revealed secret) are no sentences at all:
// they become small badges that link to the match page, where the deal can be checked.
import { t, has } from "./i18n.js";
import { describe, sentence } from "./narrate.js";
import { cardName } from "./cards.js";

// private kind -> the public kind it tells in full
const TWINS = { drew: "draw", passed: "pass" };
const FAIRNESS = { commitment: "fair.sealed", secret: "fair.revealed" };

function isTwin(priv, pub) {
  return Boolean(pub) && pub.kind === TWINS[priv.kind] && pub.seat === priv.seat && (pub.to ?? null) === (priv.to ?? null);
}

function drewLine(entry, twin) {
  const cards = (entry.cards || []).map(cardName).join(", ");
  const why = twin && twin.reason && has(`why.${twin.reason}`) ? t(`why.${twin.reason}`) : "";
  return why ? sentence(t("ev.drew_why", { cards, why })) : t("ev.drew", { cards });
}

function badge(entry, matchId) {
  const fair = entry.kind === "commitment"
    ? t("fair.sealed_title", { hash: entry.commitment })
    : t("fair.revealed_title", { secret: entry.secret });
  return {
    n: entry.n, kind: entry.kind, text: t(FAIRNESS[entry.kind], { round: entry.round }), title: fair,
    href: matchId ? `/matches/${encodeURIComponent(matchId)}` : null,
  };
}

/**
 * The log panel's lines, oldest first: `{ n, kind, text }`, and for a fairness badge also
 * `title` (the hash or secret itself) and `href` (the match page, when the match has one).
 */
export function logLines(view, nameOf) {
  const entries = [...(view.log || []), ...(view.private || [])]
    .filter((e) => e.kind !== "final") // "final" repeats the engine's match_over line
    .sort((a, b) => a.n - b.n);
  const byN = new Map(entries.map((e) => [e.n, e]));
  const told = new Set(); // public entries a private twin tells instead
  for (const e of entries) {
    if (TWINS[e.kind] && isTwin(e, byN.get(e.n - 1))) told.add(e.n - 1);
  }
  const matchId = view.room ? view.room.match_id : null;
  const lines = [];
  for (const e of entries) {
    if (told.has(e.n)) continue;
    const prev = byN.get(e.n - 1);
    if (FAIRNESS[e.kind]) lines.push(badge(e, matchId));
    else if (e.kind === "drew") lines.push({ n: e.n, kind: e.kind, text: drewLine(e, isTwin(e, prev) ? prev : null) });
    else lines.push({ n: e.n, kind: e.kind, text: describe(e, nameOf) });
  }
  return lines;
}
