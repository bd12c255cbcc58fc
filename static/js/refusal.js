// Why a move was refused, in words that help: from the engine's refusal code (an `error`
// frame's `code`, app/engine/errors.py Refusal) and what the view shows — the colour and face
// to match, whose turn it is, what the pending decision asks for.  null: no better words
// than the server's own message.
import { t } from "./i18n.js";

function faceWords(face) {
  return /^\d$/.test(face) ? face : t(`face.${face}`);
}

/** What the pending decision of your own asks for, when a card cannot answer it. */
function owed(pending, table) {
  const card = table.top ? faceWords(table.top.face) : "";
  switch (pending.kind) {
    case "stack": return t("refusal.stack", { card });
    case "challenge": return t("refusal.challenge", { card });
    case "colour": return t("refusal.colour");
    case "target": return t("refusal.target");
    case "drawn": case "special": return t("refusal.drawn");
    case "pass": return t("refusal.pass");
    default: return null;
  }
}

export function explainRefusal(code, view, nameOf) {
  const table = view && view.game ? view.game.table : null;
  if (!table) return null;
  const pending = table.pending;
  const mine = pending && pending.seat === view.you;
  switch (code) {
    case "not_your_turn":
      return pending ? t("refusal.not_your_turn", { name: nameOf(pending.seat) }) : null;
    case "wrong_action":
    case "illegal_action":
      return mine ? owed(pending, table) : null;
    case "card_not_playable": {
      if (mine && pending.kind !== "turn") return owed(pending, table);
      const top = table.top;
      if (!top) return null;
      const face = faceWords(top.face);
      if (!table.colour) return t("refusal.match_face", { face });
      const colour = t(`colour.${table.colour}`);
      // A wild on top matches by the colour chosen for it only; a coloured card by colour or face.
      return top.colour ? t("refusal.match", { colour, face }) : t("refusal.match_colour", { colour });
    }
    case "must_play": // AW-5's edition rule, HR-11's drawn card, or HR-10 / draw-until-playable's draw
      if (view.game.edition === "all_wild") return t("refusal.must_play");
      return t(mine && pending.kind === "drawn" ? "refusal.must_play_drawn" : "refusal.forced_play");
    case "uno_not_allowed": { // HR-17: UNO! only on its own, once exposed; HR-18: never
      const house = view.game.house_rules || {};
      return house.silent_uno ? t("refusal.uno_silent") : house.strict_uno ? t("refusal.uno_strict") : null;
    }
    case "hand_limit": return t("refusal.hand_limit");
    case "not_drawn_card": return t("refusal.not_drawn_card");
    case "round_over": return t("refusal.round_over");
    default: return null;
  }
}
