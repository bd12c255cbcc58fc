// A decision's box (colour, target, challenge, stack, pass, drawn card, UNO! with the play, a batch),
// drawn from a decision model: { kind, title, text?, replaced?, card?, options[], cancel? }.
// Every option is a button in view at once (app.css lays them out to fit a phone); the
// explanation, however long in whatever language, folds behind a "Why?" toggle so it never
// pushes the buttons out of the box.
import { t } from "./i18n.js";
import { append, clear, h } from "./dom.js";
import { cardSvg, colourBadge } from "./cards.js";

// What these decisions say is the explanation of their buttons (what a challenge costs, what a
// stack adds up to): folded.  A colour's or a target's reason ("Green Shell! Who draws a card?")
// and a drawn card's name are the question itself: always shown.
// A penalty coming your way says in one short line how to get out of it: always shown.
const FOLD = new Set(["challenge", "pass"]);

function optionButton(o, run) {
  const classes = ["btn", "dialog-option"];
  if (o.primary) classes.push("btn-primary");
  if (o.colour) classes.push("colour-option", `colour-${o.colour}`);
  if (o.card) classes.push("card-option");
  if (o.pressed) classes.push("pressed");
  // A toggle (a card joining a batch, HR-8) says whether it is in.
  const btn = h("button", { class: classes.join(" "), type: "button", "data-testid": "dialog-option", "data-option": o.option,
    "aria-label": o.sub ? `${o.label} (${o.sub})` : null, "aria-pressed": o.toggle !== undefined ? String(!!o.pressed) : null },
    o.colour ? colourBadge(o.colour, 22) : null,
    o.card ? h("span", { class: "option-card", "aria-hidden": "true" }, cardSvg(o.card)) : null,
    // A card to pass is its picture; its name is for screen readers (and fits no phone row).
    h("span", { class: o.card ? "option-label visually-hidden" : "option-label", text: o.label }),
    o.sub ? h("span", { class: "option-sub", text: o.sub }) : null,
    // A seat's card count as a number alone, for a target chip in a phone's sheet (sheet.css).
    o.count !== undefined
      ? h("span", { class: "option-count", "aria-hidden": "true", text: String(o.count) }) : null);
  btn.addEventListener("click", () => run(o));
  return btn;
}

/**
 * Fills `el` (the table's dialog section) with decision `d`, or hides it when `d` is null.
 * `run(option)` carries out an option; `cancel()` backs out of a choice begun from the hand.
 * The primary option (else the first) takes the focus unless the keyboard is outside the table,
 * on the same option of a box redrawn, or on the hand's cards while a batch is built there.
 */
export function showDecision(el, d, { run, cancel, table }) {
  if (!d) {
    el.hidden = true;
    clear(el);
    delete el.dataset.kind;
    return;
  }
  const options = h("div", { class: `dialog-options options-${d.kind}`, "data-count": d.options.length });
  for (const o of d.options) options.append(optionButton(o, run));
  // A hint about the hand (a batch's "add the other 7s lit up in your hand") is left out of a
  // phone's bottom sheet (sheet.js: the box is then the table's own child), which covers the hand.
  const sheet = !!table && el.parentElement === table;
  const text = [sheet ? "" : d.hint, d.text].filter(Boolean).join(" ");
  const fold = FOLD.has(d.kind) && text;
  const why = fold ? h("details", { class: "dialog-why", "data-testid": "dialog-why" },
    h("summary", { class: "dialog-why-toggle", "data-testid": "dialog-why-toggle", text: t("dialog.why") }),
    h("p", { "data-testid": "dialog-text", text })) : null;
  // The colour a challenged Wild Draw card replaced, as a swatch and in words (CL-6, MK-4): one
  // short line, the clue the decision turns on, always in view.
  const replaced = d.replaced ? h("p", { class: "dialog-replaced", "data-testid": "replaced-colour", "data-colour": d.replaced },
    colourBadge(d.replaced, 18), " ", t("dialog.replaced", { colour: t(`colour.${d.replaced}`) })) : null;
  // A box redrawn under the keyboard (a card joining a batch) keeps its place on the same option.
  const was = document.activeElement;
  const kept = was && el.contains(was) && was.dataset ? was.dataset.option : null;
  const pictured = d.card && d.kind !== "pass";
  if (d.bomb) el.dataset.bomb = "true";
  else delete el.dataset.bomb;
  append(clear(el), [
    h("div", { class: "dialog-body" },
      pictured ? h("div", { class: "dialog-card" }, cardSvg(d.card)) : null,
      h("div", { class: "dialog-main" },
        // Cancel beside the title: the options below get the whole height there is.
        h("div", { class: "dialog-head" }, h("h2", { id: "dialog-title", text: d.title }),
          d.cancel ? h("button", { class: "btn btn-ghost btn-small dialog-cancel", type: "button", "data-testid": "dialog-cancel", text: t("dialog.cancel"), onclick: cancel }) : null),
        !fold && text ? h("p", { class: "dialog-short", "data-testid": "dialog-text", text }) : null,
        replaced, options, why))]);
  el.setAttribute("aria-labelledby", "dialog-title");
  el.dataset.kind = d.kind;
  el.hidden = false;
  const active = document.activeElement;
  const again = kept ? [...options.querySelectorAll("button")].find((b) => b.dataset.option === kept) : null;
  // Building a batch from the hand by the keyboard, the focus stays on the hand's cards.
  const inHand = d.kind === "batch" && active && active.matches && active.matches("[data-testid=card]");
  if (again) again.focus({ preventScroll: true });
  else if (inHand) { /* the arrows go on along the hand; Enter on the lead plays the batch */ }
  else if (!active || active === document.body || table.contains(active)) {
    // The safe choice takes the focus (card, Enter, Enter must never get you caught: play with UNO!).
    const first = options.querySelector("button.btn-primary") || options.querySelector("button");
    if (first) first.focus({ preventScroll: true });
  }
}
