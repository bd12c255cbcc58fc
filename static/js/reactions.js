// Reactions at the table: a fixed set of emotes and two stickers, sent with one tap, shown for
// a moment at the sender's seat, read out politely, and mutable per player in this browser.
// The server keeps the last few in the view (app/rooms/reactions.py); each is shown once, and
// the ones already there when the page opens are not shown at all.
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { changed } from "./table/changed.js";

// emote -> what the bubble shows: a face or gesture, or (for the stickers) their words.
export const EMOTES = { laugh: "😂", wow: "😮", cry: "😢", angry: "😠", clap: "👏", thumbs_up: "👍", gg: null, uno: null };
const SHOWN_MS = 3000; // the length of reactions.css's react-pop

/** The reactions of a view not shown yet: `seen` is the highest number already handled. */
export function fresh(view, seen) {
  return (view.reactions || []).filter((r) => r.n > seen && Object.prototype.hasOwnProperty.call(EMOTES, r.emote));
}

/** Who a reaction is from, as muting keys it: a seat's name (names are unique in a room). */
export const senderOf = (r, nameOf) => (r.seat === null || r.seat === undefined ? r.name : nameOf(r.seat));

export class Reactions {
  constructor(send) {
    this.send = send;
    this.seen = null; // null until the first view: what was there before is not news
    this.code = null;
    this.muted = new Set();
    this.live = h("div", { class: "visually-hidden", "aria-live": "polite", "data-testid": "reaction-live" });
    this.palette = h("div", { class: "react-palette", "data-testid": "react-palette", hidden: true });
    this.button = h("button", { class: "btn btn-small react-toggle", type: "button", "data-testid": "react-toggle",
      "aria-expanded": "false", title: t("react.open"), "aria-label": t("react.open") }); // its face is drawn by app.css
    this.button.addEventListener("click", () => this.open(this.palette.hidden));
    document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && !this.palette.hidden) this.open(false); });
  }

  /** The toggle, for the table's head; the palette and the live region live on the page itself. */
  toggle() {
    if (!this.palette.isConnected) document.body.append(this.palette, this.live);
    return this.button;
  }

  open(show) {
    if (show) {
      // Under the button, kept on the screen (the head may clip what overflows it).
      const b = this.button.getBoundingClientRect();
      this.palette.style.top = `${Math.round(b.bottom + 6)}px`;
      this.palette.style.right = `${Math.round(Math.max(8, innerWidth - b.right))}px`;
    }
    this.palette.hidden = !show;
    this.button.setAttribute("aria-expanded", show ? "true" : "false");
    if (show) { const first = this.palette.querySelector("button"); if (first) first.focus({ preventScroll: true }); }
  }

  load(code) {
    this.code = code;
    try { this.muted = new Set(JSON.parse(localStorage.getItem(`uno.muted.${code}`) || "[]")); } catch { this.muted = new Set(); }
  }

  toggleMute(name) {
    if (this.muted.has(name)) this.muted.delete(name); else this.muted.add(name);
    try { localStorage.setItem(`uno.muted.${this.code}`, JSON.stringify([...this.muted])); } catch { /* private mode */ }
  }

  buildPalette(view, you, nameOf) {
    const emotes = h("div", { class: "react-emotes", role: "group", "aria-label": t("react.open") });
    for (const [emote, glyph] of Object.entries(EMOTES)) {
      emotes.append(h("button", { class: `react-option${glyph ? "" : " react-sticker"}`, type: "button", "data-emote": emote,
        "data-testid": "react-option", title: t(`react.${emote}`), "aria-label": t(`react.${emote}`), text: glyph || t(`react.${emote}`),
        onclick: () => { this.send({ type: "react", emote }); this.open(false); } }));
    }
    const others = view.players.filter((p) => p.seat !== you && !p.bot);
    const mutes = others.length ? h("div", { class: "react-mutes" }, h("p", { class: "react-mutes-title", text: t("react.mute_title") }),
      others.map((p) => h("button", { class: "btn btn-small", type: "button", "data-testid": "react-mute", "data-name": p.name,
        "aria-pressed": this.muted.has(p.name) ? "true" : "false", text: p.name,
        onclick: (ev) => { this.toggleMute(p.name); ev.currentTarget.setAttribute("aria-pressed", this.muted.has(p.name) ? "true" : "false"); } }))) : null;
    this.palette.replaceChildren(emotes, ...(mutes ? [mutes] : []));
  }

  /** After each view: who may react, and the bubbles of what is new. */
  update(view, you, nameOf) {
    if (this.code !== view.room.code) this.load(view.room.code);
    const may = you !== null || view.room.spectator_chat;
    this.button.hidden = !may;
    if (changed(this.palette, [you, view.players.map((p) => [p.seat, p.name, p.bot])])) this.buildPalette(view, you, nameOf);
    const list = view.reactions || [];
    const top = list.reduce((m, r) => Math.max(m, r.n), 0);
    if (this.seen === null) { this.seen = top; return; }
    for (const r of fresh(view, this.seen)) {
      const from = senderOf(r, nameOf);
      if (this.muted.has(from)) continue;
      this.bubble(r, you);
      this.live.textContent = t("react.announce", { name: from, reaction: t(`react.${r.emote}`) });
    }
    this.seen = Math.max(this.seen, top);
  }

  bubble(r, you) {
    // Over the sender's seat, at its place on the screen now: the seats themselves are rebuilt
    // with every frame, so the bubble floats above the page rather than living inside them.
    const glyph = EMOTES[r.emote];
    const seat = r.seat === you && you !== null ? document.querySelector("[data-testid=me] .me-name") || document.querySelector("[data-testid=me]")
      : r.seat !== null ? document.querySelector(`[data-testid=opponent][data-seat="${r.seat}"]`) : null;
    const anchor = seat || document.querySelector("[data-testid=table]");
    if (!anchor) return;
    const box = anchor.getBoundingClientRect();
    const el = h("span", { class: `react-bubble${glyph ? "" : " react-sticker"}`, "aria-hidden": "true",
      "data-testid": "reaction", "data-emote": r.emote, "data-seat": r.seat ?? "" },
    seat ? null : h("span", { class: "react-from", text: r.name || "" }), glyph || t(`react.${r.emote}`));
    // Its tail on the seat's upper part; kept whole on the screen (a bubble is about 70 px
    // square and rises above its anchor as it floats off, reactions.css).
    // A second one from the same seat while the first still shows stands beside it, not on it.
    const shown = document.querySelectorAll(`.react-bubble[data-seat="${r.seat ?? ""}"]`).length;
    const x = box.left + box.width / 2 + (shown % 3) * 84 * (box.left + box.width / 2 > innerWidth / 2 ? -1 : 1);
    el.style.left = `${Math.round(Math.min(Math.max(x, 48), innerWidth - 48))}px`;
    el.style.top = `${Math.round(Math.max(box.top + (seat ? box.height * 0.3 : box.height / 3), 84))}px`;
    document.body.append(el);
    setTimeout(() => el.remove(), SHOWN_MS);
  }
}
