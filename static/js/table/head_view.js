// The table's head: edition, round, whose deal, the room's code and options.
// Its buttons (rules, shortcuts, drawer, sound, reactions) sit beside it and are never rebuilt.
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
    // (The rules, with what each of these does, are the head's Rules button: rules_sheet.js.)
    head.options ? h("span", { class: "muted head-options", "data-testid": "table-options", title: head.options, text: head.options }) : null]);
}
