// Avatars generated from a player's name: their initials on a colour of their own, no uploads.
// The same name always gets the same colour (so friends know each other at a glance across
// matches); on the server's pages, where a player's id is known, the colour comes from the id, so
// that a look-alike name cannot copy someone's avatar.  The colours are dark enough for white
// initials at 4.5:1.
import { h } from "./dom.js";

// Eight deep hues, each with white text at 4.5:1 or more.
export const PALETTE = ["#8e2437", "#9a4b00", "#1f6b3a", "#0f5c73", "#2b4fa8", "#5b3aa8", "#8a2d8a", "#4a5568"];

/** A stable small hash of the name (FNV-1a over its code points). */
export function hashName(name) {
  let x = 0x811c9dc5;
  for (const ch of String(name)) {
    x ^= ch.codePointAt(0);
    x = Math.imul(x, 0x01000193) >>> 0;
  }
  return x;
}

/** Up to two letters: the first of the first two words, or the first two of a single word. */
export function initials(name) {
  const words = String(name).trim().split(/\s+/).filter(Boolean);
  if (!words.length) return "?";
  const first = (w) => [...w][0] || "";
  const text = words.length > 1 ? first(words[0]) + first(words[1]) : [...words[0]].slice(0, 2).join("");
  return text.toLocaleUpperCase();
}

export const colourOf = (name) => PALETTE[hashName(name) % PALETTE.length];

/** The avatar element (decorative: the name is always written beside it); its colour from ``key``
 * (a player's id) when given, else from the name. */
export function avatar(name, { bot = false, key = null } = {}) {
  const hue = hashName(key ?? name) % PALETTE.length;
  return h("span", { class: `avatar avatar-${hue}${bot ? " avatar-bot" : ""}`, "aria-hidden": "true",
    "data-testid": "avatar", text: bot ? "" : initials(name) }); // a bot's face is drawn by app.css
}
