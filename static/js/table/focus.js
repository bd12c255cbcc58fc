// Keeping the keyboard's place while regions are redrawn, and the toasts' live region where
// the eye is (the table's announcement area at the table, the page elsewhere).

/**
 * Runs `rebuild` and, when the element that had the keyboard focus was rebuilt away, puts the
 * focus on its twin (same data-testid and data-seat), else on the first of `fallbacks` still
 * there: a waiting-room update never throws a keyboard or screen-reader user back to the top.
 */
export function keepFocus(container, rebuild, fallbacks = ["start-button", "add-bot", "copy-link"]) {
  const active = document.activeElement;
  const had = active && active !== document.body && container.contains(active);
  const key = had ? { testid: active.dataset.testid, seat: active.dataset.seat } : null;
  rebuild();
  if (!had || (active.isConnected && document.activeElement === active)) return;
  const twin = key.testid ? `[data-testid="${key.testid}"]${key.seat !== undefined ? `[data-seat="${key.seat}"]` : ""}` : null;
  for (const sel of [twin, ...fallbacks.map((id) => `[data-testid="${id}"]`)]) {
    const el = sel && container.querySelector(sel);
    if (el && !el.disabled && el.getClientRects().length) { el.focus({ preventScroll: true }); return; }
  }
  const main = document.getElementById("main");
  if (main) main.focus({ preventScroll: true });
}

/** Moves the toasts' live region into `parent` (after `after`, when given and in `parent`). */
export function placeToasts(parent, after = null) {
  const box = document.getElementById("toasts");
  if (!box || !parent || box.parentElement === parent) return;
  if (after && after.parentElement === parent) parent.insertBefore(box, after.nextSibling);
  else parent.append(box);
}
