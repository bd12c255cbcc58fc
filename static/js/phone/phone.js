// The phone's aids at the table, in one place for the room page's controller: the screen kept
// on while the table is shown (wake.js), a buzz when your turn comes (buzz.js), and — while you
// look elsewhere — the tab's title and icon and, if you asked for them, notifications
// (notify.js).  Their settings are in one small "Alerts" menu beside the sound toggle: the buzz
// switch, and the button that asks for notifications (shown only where they can work: a secure
// context, see install.js).
import { t } from "../i18n.js";
import { h } from "../dom.js";
import { AttentionTracker, catchTarget } from "./attention.js";
import { WakeKeeper } from "./wake.js";
import { Buzzer, canBuzz } from "./buzz.js";
import { Notifier, callWords, canNotify } from "./notify.js";
import { secure } from "./install.js";

/** A bell, drawn (an icon beside the word). */
function bell() {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  const attrs = { viewBox: "0 0 16 16", width: "16", height: "16", focusable: "false", "aria-hidden": "true" };
  for (const [k, v] of Object.entries(attrs)) svg.setAttribute(k, v);
  const path = document.createElementNS(NS, "path");
  path.setAttribute("d", "M8 1.5a4.5 4.5 0 0 0-4.5 4.5v3L2 11.5h12L12.5 9V6A4.5 4.5 0 0 0 8 1.5z"
    + "M6.3 13a1.8 1.8 0 0 0 3.4 0z");
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

export class PhoneAids {
  constructor() {
    this.wake = new WakeKeeper();
    this.buzzer = new Buzzer();
    this.notifier = new Notifier();
    this.tracker = new AttentionTracker();
    this.el = null; // the menu: its button and panel, made once and moved between modes
  }

  /**
   * Called with each view, the page's mode ("waiting" | "game"), the title the table wants and a
   * namer: keeps the screen on at the table, buzzes and calls for you when something is yours.
   */
  notice(view, mode, title, nameOf) {
    this.wake.want(mode === "game");
    this.notifier.title(title);
    const call = this.tracker.update(view);
    this.buzzer.notice(view, call);
    if (call) this.notifier.call(call, callWords(call, view.room.name, nameOf, catchTarget(view)));
  }

  /** Lets the screen sleep again: the player left the table (a page of their own, or no seat). */
  leave() {
    this.wake.want(false);
  }

  /** The Alerts menu (a button and its panel), made once. */
  menu() {
    if (this.el) return this.el;
    const button = h("button", {
      type: "button", class: "btn btn-small phone-toggle", "data-testid": "phone-toggle",
      "aria-expanded": "false", "aria-controls": "phone-menu", title: t("phone.menu_title"),
    });
    button.append(bell(), h("span", { class: "phone-label", text: t("phone.menu") }));
    const panel = h("div", {
      class: "phone-menu", id: "phone-menu", role: "group", "aria-label": t("phone.menu_title"),
      "data-testid": "phone-menu", hidden: true,
    });
    this.el = h("span", { class: "phone-aids" }, button, panel);
    this.button = button;
    this.panel = panel;
    button.addEventListener("click", () => this.open(panel.hidden));
    this.el.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && !panel.hidden) { ev.preventDefault(); this.open(false); button.focus(); }
    });
    document.addEventListener("pointerdown", (ev) => {
      if (!panel.hidden && !this.el.contains(ev.target)) this.open(false);
    }, true);
    return this.el;
  }

  open(on) {
    const { button, panel } = this;
    if (on) this.fill();
    panel.hidden = !on;
    button.setAttribute("aria-expanded", on ? "true" : "false");
    if (!on) return;
    // Fixed under the button, inside the window: the table's head clips what overflows it.
    const r = button.getBoundingClientRect();
    const width = Math.min(320, window.innerWidth - 16);
    panel.style.width = `${width}px`;
    panel.style.top = `${Math.round(r.bottom + 6)}px`;
    panel.style.left = `${Math.round(Math.max(8, Math.min(r.right - width, window.innerWidth - width - 8)))}px`;
  }

  /** The panel's contents for the settings as they are now. */
  fill() {
    const panel = this.panel;
    panel.replaceChildren();
    panel.append(h("p", { class: "phone-menu-title", text: t("phone.menu_title") }));
    if (canBuzz()) {
      const box = h("input", { type: "checkbox", "data-testid": "buzz-toggle" });
      box.checked = this.buzzer.on;
      box.addEventListener("change", () => this.buzzer.set(box.checked));
      panel.append(h("label", { class: "phone-row" }, box, h("span", { text: t("phone.buzz") })));
    }
    if (canNotify()) panel.append(this.notifyRow());
    else if (!secure()) {
      panel.append(h("p", { class: "muted phone-note", "data-testid": "phone-insecure", text: t("phone.insecure") }));
    }
  }

  /** The panel redrawn after its notification button was used, the keyboard's place kept on that row. */
  refill() {
    this.fill();
    const next = this.panel.querySelector("[data-testid=notify-row] button");
    (next || this.button).focus();
  }

  notifyRow() {
    const state = this.notifier.state();
    const row = h("div", { class: "phone-notify", "data-testid": "notify-row", "data-state": state });
    if (state === "blocked") {
      row.append(h("p", { class: "muted phone-note", text: t("phone.notify_blocked") }));
    } else if (state === "on") {
      const off = () => { this.notifier.remember(false); this.refill(); };
      row.append(h("p", { class: "phone-note", text: t("phone.notify_on") }),
        h("button", { type: "button", class: "btn btn-small", "data-testid": "notify-off", text: t("phone.notify_off"), onclick: off }));
    } else {
      const ask = async () => { await this.notifier.ask(); this.refill(); };
      row.append(
        h("button", { type: "button", class: "btn btn-small btn-primary", "data-testid": "notify-offer", text: t("phone.notify_offer"), onclick: ask }),
        h("p", { class: "muted phone-note", text: t("phone.notify_note") }));
    }
    return row;
  }
}
