// The one narrator: every log and private entry in plain words, in the reader's language.
// The server sends each entry's kind and data only (app/rooms/narrate.py, docs/PROTOCOL.md);
// every kind below has its words in each catalogue (static/i18n/*.json), checked by
// tests/rooms/test_narrate.py.  Used by the room page and the match pages.
import { t, has } from "./i18n.js";
import { cardName } from "./cards.js";
import { teamLabel } from "./credit.js";

const cards = (list) => (list || []).map(cardName).join(", ");

// kind -> (entry, n, p) => text; n(seat) names a seat, p = { name } of the entry's own seat.
const WORDS = {
  play: (d, n, p) => {
    // HR-8: a batch names every card laid, in order (the last one acts).
    let text = d.batch && d.batch.length > 1 ? t("ev.play_batch", { ...p, count: d.batch.length, cards: cards(d.batch) })
      : t("ev.play", { ...p, card: cardName(d.card) });
    if (d.colour) text += " " + t("ev.play_colour", { colour: t(`colour.${d.colour}`) });
    if (typeof d.target === "number") text += " " + t("ev.play_target", { target: n(d.target) });
    return sentence(text);
  },
  draw: (d, n, p) => {
    if (d.count === 0) return t("ev.draw_none", p);
    // The reason is part of the sentence ("Ben drew 2 cards for not saying UNO!"), worded per language.
    const why = d.reason && has(`why.${d.reason}`) ? t(`why.${d.reason}`) : "";
    const one = d.count === 1;
    if (why) return sentence(t(one ? "ev.draw_one_why" : "ev.draw_many_why", { ...p, count: d.count, why }));
    return t(one ? "ev.draw_one" : "ev.draw_many", { ...p, count: d.count });
  },
  drew: (d) => t("ev.drew", { cards: cards(d.cards) }),
  passed: (d, n, p) => t("ev.passed", { ...p, card: cardName(d.card), target: n(d.to) }),
  pass: (d, n, p) => t("ev.pass", { ...p, target: n(d.to) }),
  // D-5: face-down cards (HR-33) in a challenged hand are shown by count only.
  hand_revealed: (d, n, p) => (d.face_down
    ? t("ev.hand_revealed_face_down", { ...p, cards: cards(d.cards) || "—", count: d.face_down })
    : t("ev.hand_revealed", { ...p, cards: cards(d.cards) || "—" })),
  turned_up: (d) => t("ev.turned_up", { cards: cards(d.cards) }), // HR-33: your face-down cards, now seen
  skipped: (d, n, p) => t("ev.skipped", p),
  uno: (d, n, p) => t(d.early ? "ev.uno_early" : "ev.uno", p),
  exposed: (d, n, p) => t("ev.exposed", p),
  caught: (d, n, p) => t("ev.caught", { ...p, by: n(d.by) }),
  keep: (d, n, p) => t("ev.keep", p),
  accept: (d, n, p) => t("ev.accept", p),
  deflect: (d, n, p) => t("ev.deflect", { ...p, count: d.penalty, target: n(d.to) }),
  misplay: (d, n, p) => t("ev.misplay", { ...p, cards: cards(d.cards) }),
  challenge: (d, n, p) => t(d.guilty ? "ev.challenge_guilty" : "ev.challenge_innocent", { ...p, target: n(d.against) }),
  colour: (d, n, p) => t("ev.colour", { ...p, colour: t(`colour.${d.colour}`) }),
  reverse: (d) => t(d.direction === 1 ? "ev.reverse_cw" : "ev.reverse_ccw"),
  swap: (d, n, p) => t("ev.swap", { ...p, target: n(d.target) }),
  jump_in: (d, n, p) => t("ev.jump_in", { ...p, target: n(d.skipped) }),
  hands_passed: (d) => t(d.direction === 1 ? "ev.hands_passed_cw" : "ev.hands_passed_ccw"),
  limit_pass: (d, n, p) => t("ev.limit_pass", { ...p, limit: d.limit }),
  dead_round: () => t("ev.dead_round"),
  bomb: (d, n, p) => t("ev.bomb", { ...p, count: d.cards }),
  item: (d, n, p) => t("ev.item", { ...p, card: cardName(d.card), item: t(`item.${d.item}`) }),
  reshuffle: (d) => t("ev.reshuffle", { count: d.cards }),
  first_card: (d) => t("ev.first_card", { card: cardName(d.card) }),
  first_card_returned: (d) => t("ev.first_card_returned", { card: cardName(d.card) }),
  dealer_draw: (d, n) => t("ev.dealer_draw", { draws: (d.draws || []).map((x) => `${n(x.seat)} ${cardName(x.card)}`).join(", ") }),
  dealer_chosen: (d, n) => t("ev.dealer_chosen", { name: n(d.dealer) }),
  round_start: (d, n) => t("ev.round_start", { round: d.round, name: n(d.dealer) }),
  // A round the match clock stopped (HR-25) was not gone out of: its winner had the fewest cards.
  // Under HR-27 the round's points are its winner's team's, and the log says so.
  // Under HR-23 they are what the others add, each their own hand.
  round_over: (d, n) => (d.penalty ? t("ev.round_over_penalty", { name: n(d.winner), points: d.points })
    : d.team && !d.blitz ? t("ev.round_over_team", { name: n(d.winner), team: teamLabel(d.team, n), points: d.points })
      : t(d.blitz ? "ev.round_over_blitz" : "ev.round_over", { name: n(d.winner), points: d.points })),
  blitz_expiry: (d, n, p) => (typeof d.seat === "number" ? t("ev.blitz", p) : t("ev.blitz_between")),
  // HX-14: with teams every total is a team's.
  scores: (d, n) => t("ev.scores", { scores: d.teams && d.team_scores
    ? d.teams.map((seats, k) => `${teamLabel(seats, n)} ${d.team_scores[k]}`).join(", ")
    : (d.scores || []).map((v, i) => `${n(i)} ${v}`).join(", ") }),
  match_over: (d, n) => (d.team ? t("ev.match_over_team", { team: teamLabel(d.team, n) }) : t("ev.match_over", { name: n(d.winner) })),
  eliminated: (d, n) => t("ev.eliminated", { name: n(d.seat) }),
  final: (d, n) => t("ev.match_over", { name: n(d.winner) }),
  // Room notes.  Seats close up when someone leaves or is removed: those notes carry the name.
  joined: (d, n, p) => t("ev.joined", { name: d.name || p.name, seat: d.seat + 1 }),
  left: (d, n, p) => t("ev.left", { name: d.name || p.name }),
  kicked: (d, n) => t("ev.kicked", { name: d.name, by: n(d.by) }),
  renamed: (d) => t("ev.renamed", { old: d.old, name: d.name }),
  started: (d) => t(d.match > 1 ? "ev.rematch" : "ev.started"),
  next_match: (d, n, p) => t("ev.next_match", { ...p, edition: t(`edition.${d.edition}`) }),
  // The rematch cannot be dealt (too few, or HR-26's teams): any countdown stopped, and why.
  rematch_stopped: (d) => t("ev.rematch_stopped", { count: d.seated, reason: has(`err.${d.reason}`) ? t(`err.${d.reason}`) : t("error.generic") }),
  bot_added: (d, n, p) => t("ev.bot_added", { name: d.bot || p.name, seat: d.seat + 1 }),
  takeover: (d, n, p) => t("ev.takeover", p),
  returned: (d, n, p) => t("ev.returned", p),
  timeout: (d, n, p) => t("ev.timeout", p),
  host: (d, n, p) => t("ev.host", p),
  // Fairness notes: the room's log shows them as badges (logbook.js); the hash and secret are on the match page.
  commitment: (d) => t("fair.sealed", { round: d.round }),
  secret: (d) => t("fair.revealed", { round: d.round }),
  uno_race: (d, n) => raceText(d, n),
};

/** A line that ends its sentence once: the reason it ends with may close it already ("…UNO!"). */
export const sentence = (text) => (/[.!?…]$/.test(text) ? text : `${text}.`);

/** Every entry kind this narrator words (the tests check each has its catalogue keys). */
export const KINDS = Object.freeze(Object.keys(WORDS));

export function describe(entry, nameOf) {
  const d = entry;
  const n = (seat) => (typeof seat === "number" ? nameOf(seat) : "");
  const words = Object.prototype.hasOwnProperty.call(WORDS, d.kind) ? WORDS[d.kind] : null;
  // An unknown kind (a newer server): a neutral sentence rather than the server's English.
  return words ? words(d, n, { name: n(d.seat) }) : t("ev.unknown");
}

/** The UNO! race receipt (C-12): who got there first, and who was too late. */
export function raceText(entry, nameOf) {
  const attempts = entry.attempts || [];
  const won = attempts.find((a) => a.ok);
  const target = nameOf(entry.target);
  let text;
  if (!won) text = t("race.nobody", { name: target });
  else if (won.action === "declare") text = t("race.declared_first", { name: target });
  else text = t("race.caught_first", { by: nameOf(won.seat), name: target });
  const late = [...new Set(attempts.filter((a) => !a.ok).map((a) => nameOf(a.seat)))];
  return late.length ? `${text} ${t("race.too_late", { names: late.join(", ") })}` : text;
}
