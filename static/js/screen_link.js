// "Show on a big screen", for the host alone: the screen link (POST /api/rooms/CODE/screen; the
// same link until revoked), its QR code for a TV's browser, the link to open on a laptop whose
// window is shared in a call, and turning it off (DELETE), which closes its screens at once.
// The link carries the host's language; the screen can change it.  docs/PROTOCOL.md, "A big screen".
import { t, currentLang } from "./i18n.js";
import { api, clear, h, toast } from "./dom.js";

export class ScreenLink {
  /** `code`: the room; `seat()`: the page's seat ({ token }) or null. */
  constructor({ code, seat }) {
    Object.assign(this, { code, seat });
    this.host = false;
    this.el = h("div", { class: "screen-link", "data-testid": "screen-link", hidden: true });
    this.button = h("button", { class: "btn btn-small screen-button", type: "button", "data-testid": "screen-button",
      "aria-haspopup": "dialog", text: t("screen.show"), onclick: () => this.open() });
    this.state = h("span", { class: "badge screen-state", "data-testid": "screen-state", hidden: true, text: t("screen.connected") });
    this.el.append(this.button, this.state);
    this.body = h("div", { class: "screen-dialog-body" });
    this.dialog = h("dialog", { class: "screen-dialog", "data-testid": "screen-dialog", "aria-labelledby": "screen-dialog-title" },
      h("h2", { id: "screen-dialog-title", text: t("screen.show") }),
      h("p", { class: "muted", text: t("screen.show_help") }),
      this.body,
      h("div", { class: "button-row" },
        h("button", { class: "btn btn-ghost", type: "button", "data-testid": "screen-revoke", text: t("screen.revoke"), onclick: () => this.revoke() }),
        h("button", { class: "btn", type: "button", "data-testid": "screen-close", text: t("dialog.close"), onclick: () => this.dialog.close() })));
  }

  /** After each view: only the host sees the button; everyone sees when a screen is on. */
  update(view) {
    this.host = view.you !== null && view.you === view.room.host;
    const screens = view.room.screens || 0;
    this.button.hidden = !this.host;
    this.state.hidden = screens === 0;
    this.el.hidden = !this.host && screens === 0;
  }

  headers() {
    const seat = this.seat();
    return seat ? { Authorization: `Bearer ${seat.token}` } : {};
  }

  async open() {
    if (!this.dialog.isConnected) document.body.append(this.dialog);
    clear(this.body).append(h("p", { text: t("room.loading") }));
    this.dialog.showModal();
    try {
      const link = await api("POST", `/api/rooms/${encodeURIComponent(this.code)}/screen`, undefined, this.headers());
      const url = new URL(link.url || `${location.origin}${link.path}`);
      url.searchParams.set("lang", currentLang()); // the host's language travels with the link
      const input = h("input", { class: "share-input", readonly: true, value: url.toString(), "data-testid": "screen-url", "aria-label": t("screen.show") });
      clear(this.body).append(
        link.qr ? h("img", { class: "screen-qr", src: link.qr, alt: t("screen.qr_alt"), width: 220, height: 220, "data-testid": "screen-qr-code" }) : null,
        h("div", { class: "share-row" }, input,
          h("a", { class: "btn btn-primary", href: url.toString(), target: "_blank", rel: "noopener", "data-testid": "screen-open", text: t("screen.open") })));
    } catch (err) {
      clear(this.body).append(h("p", { role: "alert", text: err.message }));
    }
  }

  async revoke() {
    try {
      await api("DELETE", `/api/rooms/${encodeURIComponent(this.code)}/screen`, undefined, this.headers());
      this.dialog.close();
      toast(t("screen.revoked_done"), "info", 3500);
    } catch (err) {
      toast(err.message, "error");
    }
  }
}
