// Which house rules a room plays (RULES.md §6, §7), in words: short labels, and on a tap what each
// one does.  What an option is — its values, its default, its family — comes from the server's
// schema (GET /api/house-rules), so a rule the engine learns shows up here without a change.
import { t } from "./i18n.js";
import { clear, h } from "./dom.js";
import { allOptions, loadHouseSchema, ruleLabel, rulesOn } from "./house_schema.js";

export { allOptions, loadHouseSchema, optionName, ruleLabel, rulesOn, valueLabel } from "./house_schema.js";

/** "Party", or "Party + 2 changes" (D-2): how far the rules are from the preset they came from. */
export function presetLabel(schema, rules, edition) {
  const preset = schema.presets.find((p) => p.key === (rules || {}).preset);
  if (!preset) return null;
  const changes = allOptions(schema).filter((o) => {
    const refused = (o.refused[edition] || []).includes(preset.sets[o.key]);
    const base = o.key in preset.sets && !refused ? preset.sets[o.key] : o.default;
    return o.key in rules && rules[o.key] !== base;
  }).length;
  const name = t(`house.preset.${preset.key}`);
  return changes ? t("house.preset.changes", { preset: name, n: changes }) : name;
}

/**
 * The house rules as a fold: its summary the short labels, its body what each rule does.
 * `open` keeps it open across re-renders; `ontoggle` hears the reader open or close it.
 */
export function houseRulesFold(schema, rules, edition, { open = false, ontoggle = null, testid = "house-badges" } = {}) {
  const on = rulesOn(schema, rules);
  const preset = presetLabel(schema, rules, edition);
  if (!on.length && !preset) return h("span", { class: "house-none", "data-testid": `${testid}-none`, text: t("room.no_house_rules") });
  const chips = [preset ? h("span", { class: "house-chip house-chip-preset", "data-testid": "house-chip-preset", text: preset }) : null,
    ...on.map(({ option, value }) => h("span", { class: "house-chip", "data-testid": "house-chip", "data-key": option.key, text: ruleLabel(option, value) }))];
  const fold = h("details", { class: "house-badges", "data-testid": testid, open },
    h("summary", { "aria-label": t("house.details") }, chips),
    h("dl", { class: "house-details" }, on.map(({ option, value }) => [
      h("dt", { text: ruleLabel(option, value) }),
      h("dd", { "data-key": option.key, text: t(`house.about.${option.key}`) })])));
  if (ontoggle) fold.addEventListener("toggle", () => ontoggle(fold.open));
  return fold;
}

const shown = new WeakMap(); // container → what it shows, so a view that changes nothing keeps the fold as it is

/** Fills `container` with the room's house rules and its turn timer (the waiting room's options line). */
export function showRoomOptions(container, room) {
  const key = JSON.stringify([room.house_rules, room.edition, room.turn_seconds]);
  if (shown.get(container) === key) return;
  shown.set(container, key);
  loadHouseSchema().then((schema) => {
    if (shown.get(container) !== key) return;
    const wasOpen = Boolean(container.querySelector("details[open]"));
    clear(container).append(houseRulesFold(schema, room.house_rules, room.edition, { open: wasOpen }));
    if (room.turn_seconds) container.append(h("span", { class: "house-timer", text: t("room.turn_timer", { n: room.turn_seconds }) }));
  }).catch(() => { shown.delete(container); });
}
