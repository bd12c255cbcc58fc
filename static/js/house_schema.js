// The server's house-rules schema (GET /api/house-rules) and the words for an option and its
// values, with nothing but the catalogue to lean on (so dom.js may use it too).
import { t } from "./i18n.js";

let schemaPromise = null;
let schemaNow = null;

/** The schema if it has come already (for words that cannot wait for it), else null. */
export function cachedHouseSchema() {
  return schemaNow;
}

/** The server's house-rules schema, fetched once per page. */
export function loadHouseSchema() {
  if (!schemaPromise) {
    schemaPromise = fetch("/api/house-rules").then((res) => {
      if (!res.ok) throw new Error(`house rules: ${res.status}`);
      return res.json();
    }).then((schema) => { schemaNow = schema; return schema; });
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

