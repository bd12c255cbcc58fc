// Cards on the move: a card back flies from the draw pile to whoever draws, and at each deal
// one to every seat in turn.  (A card played flies from its seat to the pile: table/piles_view.js, travel.)
// Nothing moves under reduced motion; `flights` is pure and unit-tested under Node.

const STAGGER_MS = 90;
const MAX_PER_DRAW = 3; // a Draw Four shows as three quick backs, not a shower

/**
 * The flights new log entries call for: `[{ seat, delay }]`, each a card back from the draw
 * pile to `seat`, `delay` ms after the first.  A deal sends one to every seat in play order.
 */
export function flights(entries, seats) {
  const out = [];
  let at = 0;
  for (const e of entries) {
    if (e.kind === "draw" && e.count > 0 && typeof e.seat === "number") {
      for (let i = 0; i < Math.min(e.count, MAX_PER_DRAW); i++) { out.push({ seat: e.seat, delay: at }); at += STAGGER_MS; }
    } else if (e.kind === "round_start") {
      for (let s = 0; s < seats; s++) {
        const seat = (e.dealer + 1 + s) % seats; // the deal goes round from the dealer's left
        out.push({ seat, delay: at });
        at += STAGGER_MS;
      }
    }
  }
  return out;
}

export class TableMotion {
  constructor() {
    this.lastN = null;
    this.pileBox = null; // where the draw pile was last seen: a decision may cover it as a card is drawn
    this.reduced = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : { matches: true };
  }

  /** After each view at the table: what moved since the last one (nothing on the first). */
  update(view) {
    const seen = document.querySelector("[data-testid=draw-pile] .pile-card");
    const box = seen && seen.getBoundingClientRect();
    if (box && box.width) this.pileBox = box;
    const log = view.log || [];
    const newest = log.reduce((m, e) => Math.max(m, e.n), 0);
    const fresh = this.lastN === null ? [] : log.filter((e) => e.n > this.lastN);
    this.lastN = Math.max(this.lastN ?? 0, newest);
    if (!fresh.length || this.reduced.matches || !view.game) return;
    const seats = (view.game.table && view.game.table.hand_sizes ? view.game.table.hand_sizes.length : view.players.length);
    for (const f of flights(fresh, seats)) setTimeout(() => this.fly(f.seat, view.you), f.delay);
  }

  fly(seat, you) {
    const pile = document.querySelector("[data-testid=draw-pile] .pile-card");
    const to = seat === you ? document.querySelector("[data-testid=hand]") : document.querySelector(`[data-testid=opponent][data-seat="${seat}"]`);
    if (!pile || !to || typeof pile.animate !== "function") return;
    const now = pile.getBoundingClientRect();
    const a = now.width ? now : this.pileBox; // hidden by the decision the draw opened: where it was
    const b = to.getBoundingClientRect();
    if (!a || !a.width || !b.width) return;
    const back = pile.cloneNode(true);
    back.classList.add("flying-back");
    back.setAttribute("aria-hidden", "true");
    back.style.left = `${a.left}px`;
    back.style.top = `${a.top}px`;
    back.style.width = `${a.width}px`;
    back.style.height = `${a.height}px`;
    document.body.append(back);
    const dx = b.left + b.width / 2 - (a.left + a.width / 2);
    const dy = b.top + b.height / 2 - (a.top + a.height / 2);
    const scale = Math.max(0.3, Math.min(1, b.height / a.height));
    const flight = back.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.2 }],
      { duration: 380, easing: "cubic-bezier(0.3, 0.6, 0.3, 1)" });
    const done = () => back.remove();
    flight.addEventListener("finish", done);
    flight.addEventListener("cancel", done);
  }
}
