// Refusals in the reader's language.  Error frames and HTTP error bodies carry a `code` and,
// where the words need them, `params` (docs/PROTOCOL.md#errors); the English `message` is for
// API users and is never shown.  Every code the server can send has an `err.` key in every
// catalogue (tests/rooms/test_narrate.py).
import { t, has } from "./i18n.js";

// code -> (params, nameOf) => text, where the plain `err.<code>` text is not enough.
const WITH_PARAMS = {
  too_late: (p, n) => (typeof p.by === "number"
    ? t(p.did === "declare" ? "err.too_late_declared" : "err.too_late_caught", { name: n(p.by), target: n(p.target) })
    : t("err.too_late")),
  name_taken: (p) => (p.name ? t("err.name_taken_name", { name: p.name }) : t("err.name_taken")),
  room_full: (p) => (p.seats ? t("err.room_full_seats", { n: p.seats }) : t("err.room_full")),
  not_host: (p, n) => (typeof p.host === "number" ? t("err.not_host_name", { name: n(p.host) }) : t("err.not_host")),
  bad_name: (p) => (p.max ? t("err.bad_name_long", { n: p.max }) : t("err.bad_name")),
  bad_house_rules: (p) => (p.option && has(`house.name.${p.option}`)
    ? t("err.bad_house_rules_option", { option: t(`house.name.${p.option}`) }) : t("err.bad_house_rules")),
  bad_chat: (p) => (p.max ? t("err.bad_chat_long", { n: p.max }) : t("err.bad_chat")),
  // "It is not your turn." and what the table waits for, in the words the table already uses.
  not_your_turn: (p, n) => (typeof p.seat === "number" && p.decision && has(`pending.other.${p.decision}`)
    ? `${t("err.not_your_turn")} ${t(`pending.other.${p.decision}`, { name: n(p.seat) })}` : t("err.not_your_turn")),
  wrong_action: (p) => (p.decision && has(`pending.mine.${p.decision}`)
    ? `${t("err.wrong_action")} ${t(`pending.mine.${p.decision}`)}` : t("err.wrong_action")),
};

/** The words for an error `code` (with its `params`); `nameOf` names a seat. */
export function errorText(code, params, nameOf = (seat) => t("room.seat_n", { n: seat + 1 }), { http = false } = {}) {
  const p = params && typeof params === "object" ? params : {};
  // One code means two things: an HTTP `bad_target` is a bad target score, not a bad opponent.
  if (http && code && has(`err.http.${code}`)) return t(`err.http.${code}`);
  if (code && Object.prototype.hasOwnProperty.call(WITH_PARAMS, code)) return WITH_PARAMS[code](p, nameOf);
  return code && has(`err.${code}`) ? t(`err.${code}`) : t("error.generic");
}

/** An error frame (`{"type": "error", "code", "params"}`) or a thrown api() error, in words. */
export function frameText(frame, nameOf) {
  return errorText(frame && frame.code, frame && frame.params, nameOf);
}
