// A box that scrolls says so: `data-more-above` / `data-more-below` on it while some of its
// content is out of sight that way, for the stylesheet to draw a fade at that edge (a "Why?"
// opened on a phone makes the announcement area scroll; the fade shows there is more).

/** Keeps `el`'s hints true as it scrolls, resizes, or its content changes or unfolds. */
export function scrollHints(el) {
  const update = () => {
    const extra = el.scrollHeight - el.clientHeight;
    const above = extra > 1 && el.scrollTop > 1;
    const below = extra > 1 && el.scrollTop < extra - 1;
    if (el.dataset.moreAbove !== String(above)) el.dataset.moreAbove = String(above);
    if (el.dataset.moreBelow !== String(below)) el.dataset.moreBelow = String(below);
  };
  el.addEventListener("scroll", update, { passive: true });
  el.addEventListener("toggle", update, true); // a <details> opened or closed inside (toggle does not bubble)
  if (typeof ResizeObserver === "function") new ResizeObserver(update).observe(el);
  new MutationObserver(update).observe(el, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden", "open"] });
  update();
  return update;
}
