// The rules at the table, one tap away on every device: a sheet (a modal <dialog>, from the
// bottom on a phone) with the house rules this room turns on, then the edition's rules — the
// same words as the /rules/EDITION page, in the page's language.  Nothing is restated here:
// the edition's sections come from GET /api/rules/EDITION (the page's own list of catalogue
// keys, app/web/rules.py), the house rules' labels and explanations from the house-rules
// schema (house_schema.js) and the catalogue.  The full page stays a link away.
import { t } from "../i18n.js";
import { clear, h } from "../dom.js";
import { loadHouseSchema, presetLabel, ruleLabel, rulesOn } from "../house_rules_badges.js";

const editions = new Map(); // edition -> its rules' promise, fetched once per page

function editionRules(edition) {
  if (!editions.has(edition)) {
    const p = fetch(`/api/rules/${encodeURIComponent(edition)}`).then((res) => {
      if (!res.ok) throw new Error(`rules: ${res.status}`);
      return res.json();
    });
    p.catch(() => editions.delete(edition)); // a later tap tries again
    editions.set(edition, p);
  }
  return editions.get(edition);
}

/** The room's house rules that are on: each one's label and what it does, or a line saying none. */
function houseSection(schema, room) {
  const on = rulesOn(schema, room.house_rules);
  const preset = presetLabel(schema, room.house_rules || {}, room.edition);
  const body = on.length
    ? h("dl", { class: "rules-sheet-house" }, on.map(({ option, value }) => [
      h("dt", { text: ruleLabel(option, value) }),
      h("dd", { "data-key": option.key, text: t(`house.about.${option.key}`) })]))
    : h("p", { class: "muted", text: t("rules.sheet.none") });
  return h("section", { class: "rules-section rules-sheet-on", "data-testid": "rules-sheet-house" },
    h("h3", { text: t("rules.sheet.house") }),
    preset ? h("p", { class: "house-chip house-chip-preset", text: preset }) : null, body);
}

/** The edition's sections, worded from the page's keys and facts. */
function editionSections(rules) {
  return rules.sections.map((s) => h("section", { class: "rules-section", "data-testid": "rules-sheet-section" },
    h("h3", { text: t(s.title) }),
    h("ul", {}, s.items.map((key) => h("li", { "data-key": key, text: t(key, rules.facts) })))));
}

export class RulesSheet {
  constructor() {
    this.room = null;
    this.title = h("h2", { id: "rules-sheet-title" });
    this.body = h("div", { class: "rules-sheet-body", "data-testid": "rules-sheet-body" });
    this.full = h("a", { class: "rules-sheet-full", target: "_blank", rel: "noopener", "data-testid": "rules-sheet-full", text: t("rules.sheet.full") });
    const close = h("button", { class: "btn btn-small", type: "button", "data-testid": "rules-sheet-close", text: t("dialog.close"), onclick: () => this.close() });
    this.el = h("dialog", { class: "rules-sheet", "data-testid": "rules-sheet", "aria-labelledby": "rules-sheet-title" },
      h("div", { class: "rules-sheet-head" }, this.title, close), this.body, this.full);
    // The table's own keys (U, D, ?) are not for a page being read; Esc still closes the sheet.
    this.el.addEventListener("keydown", (ev) => ev.stopPropagation());
    // A tap on the dimmed table around the sheet closes it, as on any sheet.
    this.el.addEventListener("click", (ev) => { if (ev.target === this.el) this.close(); });
    this.el.addEventListener("close", () => this.button.setAttribute("aria-expanded", "false"));
    this.button = h("button", { class: "btn btn-small head-button rules-toggle", type: "button", "data-testid": "rules-toggle",
      "aria-haspopup": "dialog", "aria-expanded": "false", title: t("rules.sheet.open"), "aria-label": t("rules.sheet.open"),
      text: t("rules.link"), onclick: () => this.open() });
  }

  /** The head's button; the sheet itself lives on the page. */
  toggle() {
    if (!this.el.isConnected) document.body.append(this.el);
    return this.button;
  }

  /** After each view: the room whose rules a tap shows. */
  update(room) {
    this.room = room;
  }

  async open() {
    const room = this.room;
    if (!room) return;
    this.title.textContent = t("rules.title", { edition: t(`edition.${room.edition}`) });
    this.full.href = `/rules/${room.edition}?room=${encodeURIComponent(room.code)}`;
    if (!this.el.open) this.el.showModal();
    this.button.setAttribute("aria-expanded", "true");
    this.el.dataset.edition = room.edition;
    try {
      const [schema, rules] = await Promise.all([loadHouseSchema(), editionRules(room.edition)]);
      clear(this.body).append(houseSection(schema, room), ...editionSections(rules));
    } catch {
      clear(this.body).append(h("p", { class: "muted", text: t("rules.sheet.failed") }));
    }
  }

  close() {
    if (this.el.open) this.el.close();
  }
}
