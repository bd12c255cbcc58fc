// Where the decision box sits.  On a phone, upright or sideways, it is a bottom sheet over your
// bar and the hand (a grid item of the table, sheet.css): the seats with their counts, the
// pile, the colour and the status line (whose turn it is) stay in view above it, because the
// hand is what a decision replaces; the action bar stays beside or below it, so UNO! and its
// Catch can be pressed while a decision is open.  Beside the piles, in the announcement area, the box
// once took the seats' row and the piles on a phone, so a player choosing a colour or a swap
// target could no longer see the very counts the choice turns on.  On wider screens the box
// stays in the announcement area, beside the piles.

// A phone upright (a window up to 660 px wide: a table's centre up to 620 px, where app.css once
// hid the piles for a decision) or sideways (under 480 px high).
const PHONE = "(max-width: 660px), (max-height: 480px)";

let placed = null; // the table whose box the media listener moves (the page builds one at a time)
let media = null;

function put() {
  if (!placed) return;
  const { dialog, table, announce, summary } = placed;
  const sheet = media.matches;
  const home = sheet ? table : announce;
  if (dialog.parentElement !== home) {
    const focused = dialog.contains(document.activeElement) ? document.activeElement : null;
    if (sheet) table.insertBefore(dialog, summary);
    else announce.prepend(dialog);
    if (focused) focused.focus({ preventScroll: true }); // a turned phone keeps the keyboard's place
  }
  table.dataset.sheet = String(sheet);
}

/** Puts the table's decision box (`els.dialog`) where the screen wants it, now and as it turns. */
export function placeDecision(els) {
  placed = els;
  if (!media && typeof window.matchMedia === "function") {
    media = window.matchMedia(PHONE);
    media.addEventListener("change", put);
  }
  if (media) put();
}

/**
 * Where the "while you were away" notice goes at the table (absence.js, away.css): on a phone
 * in the head's place (the head steps aside until it is read: the seats and the piles keep
 * their room), elsewhere in the line under the piles, before the last event's line.
 */
export function awaySpot(els) {
  if (media && media.matches) return { host: els.table, before: els.opponents };
  return { host: els.info, before: els.ticker };
}
