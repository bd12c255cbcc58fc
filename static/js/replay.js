// A replay's position and links, without the DOM (unit-tested in tests/js/replay.test.mjs).
//
// A replay (GET /api/matches/{id}/replay, docs/PROTOCOL.md) has rounds of steps: step 0 is the
// deal, step k the round's k-th move.  A position is { round, move }, round from 1: the same
// numbers a shared link carries, `/matches/{id}?round=2&move=17` (or `#r2m17`).

/** The number of moves of each round (its steps less the deal). */
export function moveCounts(doc) {
  return (doc.rounds || []).map((r) => Math.max(0, (r.steps || []).length - 1));
}

/** The position clamped into the replay: a round that exists, a move that round has. */
export function clamp(counts, pos) {
  if (!counts.length) return { round: 1, move: 0 };
  const round = Math.min(Math.max(1, Math.trunc(Number(pos.round)) || 1), counts.length);
  const move = Math.min(Math.max(0, Math.trunc(Number(pos.move)) || 0), counts[round - 1]);
  return { round, move };
}

/** One move on (+1) or back (-1), across rounds: the deal of the next round follows the last move. */
export function step(counts, pos, by) {
  let { round, move } = clamp(counts, pos);
  if (by > 0) {
    if (move < counts[round - 1]) move += 1;
    else if (round < counts.length) { round += 1; move = 0; }
  } else if (by < 0) {
    if (move > 0) move -= 1;
    else if (round > 1) { round -= 1; move = counts[round - 1]; }
  }
  return { round, move };
}

export function atEnd(counts, pos) {
  const p = clamp(counts, pos);
  return p.round === counts.length && p.move === counts[counts.length - 1];
}

/** The position a link asks for: `?round=2&move=17`, else `#r2m17`; null when it asks for none. */
export function parseLink(search, hash) {
  const params = new URLSearchParams(search || "");
  if (params.has("round") || params.has("move")) {
    return { round: Number(params.get("round") || 1), move: Number(params.get("move") || 0) };
  }
  const m = /^#?r(\d+)(?:m(\d+))?$/.exec(hash || "");
  return m ? { round: Number(m[1]), move: Number(m[2] || 0) } : null;
}

/** The link to a position: the page's address with `round` and `move` set (other parameters kept). */
export function linkTo(href, pos) {
  const url = new URL(href);
  url.searchParams.set("round", String(pos.round));
  url.searchParams.set("move", String(pos.move));
  url.hash = "";
  return url.toString();
}

/** The link to share: as linkTo, less the sharer's `lang` (the reader's own language applies). */
export function shareLink(href, pos) {
  const url = new URL(linkTo(href, pos));
  url.searchParams.delete("lang");
  return url.toString();
}

/** The cards of a state's hands, from the replay's card table (states name cards by id). */
export function hands(doc, state) {
  return state.hands.map((hand) => hand.map((id) => doc.cards[id]));
}

/** Milliseconds between moves at a speed (1 = a move every 1.2 s). */
export function interval(speed) {
  const s = Number(speed) > 0 ? Number(speed) : 1;
  return Math.round(1200 / s);
}
