// Bot levels (app/bots/levels.py): the host picks one when adding a bot, and a bot's seat says it.
import { t } from "./i18n.js";
import { h } from "./dom.js";

export const BOT_LEVELS = ["easy", "normal", "hard"];
const DEFAULT_LEVEL = "normal";

// The level the host last picked: the waiting room is rebuilt on every change of the room, and the
// picker must not jump back to normal while the host adds several hard bots.
let picked = DEFAULT_LEVEL;

/** What a bot's seat badge says: "bot · hard" (a bot stored before levels existed: "bot"). */
export function botBadgeText(level) {
  return BOT_LEVELS.includes(level) ? t("room.bot_level", { level: t(`room.level.${level}`) }) : t("room.bot");
}

/** The host's level picker, labelled, keeping the last pick; `level()` reads it when the bot is added. */
export function levelPicker() {
  const select = h("select", { class: "bot-level-select", "data-testid": "bot-level", id: "bot-level" },
    ...BOT_LEVELS.map((level) => h("option", { value: level, selected: level === picked, text: t(`room.level.${level}`) })));
  select.addEventListener("change", () => { picked = select.value; });
  const el = h("label", { class: "bot-level", for: "bot-level" }, h("span", { text: t("room.bot_level_label") }), select);
  return { el, level: () => select.value };
}
