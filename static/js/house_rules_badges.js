// Which house rules a room plays (RULES.md §6, §7), in words: short labels, and on a tap what each
// one does.  What an option is — its values, its default, its family — comes from the server's
// schema (GET /api/house-rules), so a rule the engine learns shows up here without a change.
import { t } from "./i18n.js";
import { clear, h } from "./dom.js";

let schemaPromise = null;

/** The server's house-rules schema, fetched once per page. */
export function loadHouseSchema() {
  if (!schemaPromise) {
    schemaPromise = fetch("/api/house-rules").then((res) => {
      if (!res.ok) throw new Error(`house rules: ${res.status}`);
      return res.json();
    });
    schemaPromise.catch(() => { schemaPromise = null; }); // a later call tries again
  }
  return schemaPromise;
}

/** Every option of the schema, in §7's order. */
export function allOptions(schema) {
  return schema.families.flatMap((family) => family.options);
}

export function optionName(key) {
  return t(`house.name.${key}`);
}

/** One value of an option in words: "Both", "20 cards", "5 min", "Off". */
export function valueLabel(option, value) {
  if (value === null || value === undefined) return t("house.off");
  if (typeof value === "number") {
    return t(`house.value.${option.key}`, { n: option.key === "blitz_seconds" ? value / 60 : value });
  }
  return t(`house.value.${option.key}.${value}`);
}

/** The short label of an option that is on: "Stacking", "Cross-stack: both", "3 rounds". */
export function ruleLabel(option, value) {
  if (option.kind === "bool") return optionName(option.key);
  if (option.key === "rounds") return t("house.rounds", { n: value });
  return `${optionName(option.key)}: ${valueLabel(option, value)}`;
}

/** The options a room's house rules turn on (away from their default), with their values. */
export function rulesOn(schema, rules) {
  const given = rules || {};
  return allOptions(schema)
    .filter((o) => o.key in given && given[o.key] !== o.default && given[o.key] !== undefined)
    .map((option) => ({ option, value: given[option.key] }));
}

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
