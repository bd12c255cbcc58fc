// The connection banner: connecting, reconnecting (attempt n), or why the socket closed for
// good, with what to do next (use this tab, go home).
import { t } from "./i18n.js";
import { clear, h } from "./dom.js";

/**
 * Shows `status` ("connecting" | "open" | "reconnecting" | "closed") in `banner`; for a closed
 * socket, `on` = { badToken, reconnect, forget } says what the page does about it.
 */
export function showConnection(banner, status, detail, on) {
  banner.dataset.state = status;
  banner.hidden = status === "open";
  if (status === "connecting") banner.textContent = t("conn.connecting");
  else if (status === "reconnecting") banner.textContent = t("conn.reconnecting", { n: detail ? detail.attempt : 1 });
  else if (status === "closed") {
    const reason = detail && detail.reason;
    clear(banner);
    if (reason === "bad_token") {
      banner.textContent = t("conn.bad_token");
      on.badToken();
    } else if (reason === "replaced") {
      banner.append(t("conn.replaced"), " ",
        h("button", { class: "btn btn-small", type: "button", onclick: () => on.reconnect(), text: t("conn.use_here") }));
    } else if (reason === "removed") {
      on.forget();
      banner.append(t("conn.removed"), " ", h("a", { href: "/", text: t("nav.home") }));
    } else if (reason === "no_room" || reason === "room_closed") {
      banner.append(t("conn.room_closed"), " ", h("a", { href: "/", text: t("nav.home") }));
    } else {
      banner.textContent = t("conn.closed");
    }
  }
}
