// The phone as a controller: while a big screen shows the table (the view's `room.screens`), a
// seat's page on a phone gives the hand most of the screen — large cards, scrolling past a dozen —
// with the decisions and Draw / UNO! at the thumb and only a strip for the top card, the colour
// and whose turn it is (static/css/controller.css).  A toggle goes back to the full table and
// back again at any time; the choice is remembered on this device.
import { t } from "../i18n.js";
import { h } from "../dom.js";

const phone = window.matchMedia("(max-width: 699px)");
const KEY = "uno.layout"; // "full": this device prefers the full table even with a screen on

function prefersController() {
  try { return localStorage.getItem(KEY) !== "full"; } catch { return true; }
}

export class ControllerLayout {
  constructor(onChange) {
    this.onChange = onChange;
    this.view = null;
    this.mode = null;
    this.active = false;
    this.els = null; // the table's elements: the toggle sits in the line under the piles, or in the controller's grid
    this.toggle = h("button", { class: "btn btn-small layout-toggle", type: "button", "data-testid": "layout-toggle", hidden: true,
      onclick: () => this.flip() });
    phone.addEventListener("change", () => this.apply());
  }

  flip() {
    try { localStorage.setItem(KEY, this.active ? "full" : "controller"); } catch { /* private mode: this page only */ }
    this.apply();
    if (this.onChange) this.onChange();
  }

  /** The table was built (controller.js): the toggle goes with it. */
  place(els) {
    this.els = els;
    this.apply();
  }

  /** After each view: offered at the table, to a seat on a phone, while a screen is on. */
  update(view, mode) {
    this.view = view;
    this.mode = mode;
    this.apply();
  }

  apply() {
    const v = this.view;
    const offered = !!v && this.mode === "game" && v.you !== null && (v.room.screens || 0) > 0 && phone.matches;
    this.active = offered && prefersController();
    if (this.active) document.body.dataset.layout = "controller";
    else delete document.body.dataset.layout;
    this.toggle.hidden = !offered;
    const words = this.active ? t("screen.full_table") : t("screen.controller");
    this.toggle.classList.toggle("to-controller", !this.active); // (a TV before the word: controller.css)
    if (this.toggle.textContent !== words) this.toggle.textContent = words;
    this.toggle.title = this.active ? t("screen.controller_help") : "";
    const home = this.els && (this.active ? this.els.table : this.els.info);
    if (home && this.toggle.parentElement !== home) home.append(this.toggle);
  }
}
