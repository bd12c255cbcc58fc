// The table's head: edition, round, whose deal, the room's code and options, the rules link.
// Its buttons (shortcuts, drawer, sound, reactions) sit beside it and are never rebuilt.
import { t } from "../i18n.js";
import { append, clear, h } from "../dom.js";
import { changed } from "./changed.js";

/** Fills the head's words from the model's `head` part, when they changed. */
export function showHead(el, head) {
  if (!changed(el, head)) return;
  append(clear(el), [
    h("span", { class: "edition-tag", text: head.editionName }),
    h("span", { class: "head-round", text: head.round }),
    h("span", { class: "muted head-dealer", text: head.dealer }),
    h("span", { class: "muted room-code", text: head.code }),
    // One line, however many house rules (the whole list on a hover and on the rules page): a
    // second line would take its height from the decisions below.
    head.options ? h("span", { class: "muted head-options", "data-testid": "table-options", title: head.options, text: head.options }) : null,
    // Opened from the table, the rules page marks the house rules this room plays (the details of the line above).
    h("a", { class: "rules-link", href: `/rules/${head.edition}?room=${encodeURIComponent(head.code)}`, target: "_blank", rel: "noopener", "data-testid": "rules-link", text: t("rules.link") })]);
}
