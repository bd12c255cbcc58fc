// A one-time tip, the first time a player's play can leave them one card: say UNO! with it
// (C-11), or anyone may catch them and they draw 2.  Shown once per browser (remembered as it
// is shown, so a reload, the next round or the next match never brings it back), and gone by
// itself once its moment has passed: the player's move made, it has nothing left to say.
// "Got it" closes it sooner.  It sits in the table's line under the piles (table_view.js),
// never over the pile, the colour or the hand.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "uno.tip.uno";

function seen() {
  try { return localStorage.getItem(KEY) === "1"; } catch { return false; }
}

function markSeen() {
  try { localStorage.setItem(KEY, "1"); } catch { /* private mode: shown once per page instead */ }
}

let shown = null;
let once = false; // shown on this page already (for private mode, where nothing is remembered)

function close() {
  if (shown) shown.remove();
  shown = null;
}

/** Show the tip in `host`, before `before`, when `due` (your turn, and a play can say UNO!),
 *  unless seen before on this device; take it away once it is no longer due. */
export function maybeUnoTip(host, due, before = null) {
  if (shown && !shown.isConnected) shown = null;
  if (!due) { close(); return; } // its moment passed: the move was made
  if (shown || once || seen() || !host) return;
  markSeen();
  once = true;
  shown = h("aside", { class: "uno-tip", role: "note", "aria-labelledby": "uno-tip-title", "data-testid": "uno-tip" },
    h("strong", { id: "uno-tip-title", text: t("tip.uno_title") }), " ",
    h("p", { class: "uno-tip-text", text: t("tip.uno") }),
    h("button", { class: "btn btn-small", type: "button", "data-testid": "uno-tip-ok", text: t("tip.ok"), onclick: close }));
  host.insertBefore(shown, before && before.parentNode === host ? before : null);
}
