// A one-time tip, the first time a player's play can leave them one card: say UNO! with it
// (C-11), or anyone may catch them and they draw 2.  Seen once per browser.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "uno.tip.uno";

function seen() {
  try { return localStorage.getItem(KEY) === "1"; } catch { return false; }
}

function markSeen() {
  try { localStorage.setItem(KEY, "1"); } catch { /* private mode */ }
}

let shown = null;

/** Show the tip in `host`, before `before`, when `due` (your turn, and a play can say UNO!),
 *  unless seen before. */
export function maybeUnoTip(host, due, before = null) {
  if (shown && !shown.isConnected) shown = null;
  if (!due || shown || seen() || !host) return;
  const close = () => { markSeen(); if (shown) shown.remove(); shown = null; };
  shown = h("aside", { class: "uno-tip", role: "note", "aria-labelledby": "uno-tip-title", "data-testid": "uno-tip" },
    h("strong", { id: "uno-tip-title", text: t("tip.uno_title") }),
    h("p", { text: t("tip.uno") }),
    h("button", { class: "btn btn-small", type: "button", "data-testid": "uno-tip-ok", text: t("tip.ok"), onclick: close }));
  host.insertBefore(shown, before && before.parentNode === host ? before : null);
}
