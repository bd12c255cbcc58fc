// Log entries in plain words, in the reader's language.  Entries carry their data (see
// app/rooms/narrate.py); the server's English `text` is the fallback for anything unknown.
import { t, has } from "./i18n.js";
import { cardName } from "./cards.js";

export function describe(entry, nameOf) {
  const d = entry;
  const n = (seat) => (typeof seat === "number" ? nameOf(seat) : "");
  const p = { name: n(d.seat) };
  switch (d.kind) {
    case "play": {
      let text = t("ev.play", { ...p, card: cardName(d.card) });
      if (d.colour) text += " " + t("ev.play_colour", { colour: t(`colour.${d.colour}`) });
      if (typeof d.target === "number") text += " " + t("ev.play_target", { target: n(d.target) });
      return text;
    }
    case "draw": {
      const reason = d.reason && has(`why.${d.reason}`) ? t(`why.${d.reason}`) : "";
      const base = d.count === 0 ? t("ev.draw_none", p) : t(d.count === 1 ? "ev.draw_one" : "ev.draw_many", { ...p, count: d.count });
      return reason ? `${base} ${reason}` : base;
    }
    case "drew": return t("ev.drew", { cards: (d.cards || []).map(cardName).join(", ") });
    case "passed": return t("ev.passed", { ...p, card: cardName(d.card), target: n(d.to) });
    case "pass": return t("ev.pass", { ...p, target: n(d.to) });
    case "hand_revealed": return t("ev.hand_revealed", { ...p, cards: (d.cards || []).map(cardName).join(", ") || "—" });
    case "skipped": return t("ev.skipped", p);
    case "uno": return t(d.early ? "ev.uno_early" : "ev.uno", p);
    case "exposed": return t("ev.exposed", p);
    case "caught": return t("ev.caught", { ...p, by: n(d.by) });
    case "keep": return t("ev.keep", p);
    case "accept": return t("ev.accept", p);
    case "challenge": return t(d.guilty ? "ev.challenge_guilty" : "ev.challenge_innocent", { ...p, target: n(d.against) });
    case "colour": return t("ev.colour", { ...p, colour: t(`colour.${d.colour}`) });
    case "reverse": return t(d.direction === 1 ? "ev.reverse_cw" : "ev.reverse_ccw");
    case "swap": return t("ev.swap", { ...p, target: n(d.target) });
    case "item": return t("ev.item", { ...p, card: cardName(d.card), item: t(`item.${d.item}`) });
    case "reshuffle": return t("ev.reshuffle", { count: d.cards });
    case "first_card": return t("ev.first_card", { card: cardName(d.card) });
    case "first_card_returned": return t("ev.first_card_returned", { card: cardName(d.card) });
    case "dealer_draw": return t("ev.dealer_draw", { draws: (d.draws || []).map((x) => `${n(x.seat)} ${cardName(x.card)}`).join(", ") });
    case "dealer_chosen": return t("ev.dealer_chosen", { name: n(d.dealer) });
    case "round_start": return t("ev.round_start", { round: d.round, name: n(d.dealer) });
    case "round_over": return t("ev.round_over", { name: n(d.winner), points: d.points });
    case "scores": return t("ev.scores", { scores: (d.scores || []).map((v, i) => `${n(i)} ${v}`).join(", ") });
    case "match_over": return t("ev.match_over", { name: n(d.winner) });
    case "final": return t("ev.match_over", { name: n(d.winner) });
    case "joined": return t("ev.joined", { ...p, seat: d.seat + 1 });
    case "started": return t(d.match > 1 ? "ev.rematch" : "ev.started");
    case "bot_added": return t("ev.bot_added", { name: d.bot || p.name, seat: d.seat + 1 });
    case "takeover": return t("ev.takeover", p);
    case "returned": return t("ev.returned", p);
    case "timeout": return t("ev.timeout", p);
    case "uno_race": return raceText(d, nameOf);
    default: return d.text || d.kind;
  }
}

/** The UNO! race receipt: who was first, and who was too late (C-12). */
export function raceText(entry, nameOf) {
  const parts = (entry.attempts || []).map((a, i) => {
    const verb = a.action === "declare" ? t("race.declared", { name: nameOf(a.seat) }) : t("race.caught", { name: nameOf(a.seat) });
    return `${i + 1}. ${verb}${a.ok ? "" : " " + t("race.too_late")}`;
  });
  return t("race.title", { name: nameOf(entry.target) }) + " " + parts.join("; ");
}
