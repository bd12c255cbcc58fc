// The house-rules part of room creation: a preset (HR-34) and every option this server plays,
// grouped by RULES.md §7's families, each with a line on what it does.  A combination the server
// would refuse (HX-1's needs and conflicts, an edition's refusals) cannot be picked: the control
// is disabled with the reason beside it.  The server stays the authority; this only spares a 422.
import { t } from "./i18n.js";
import { clear, h } from "./dom.js";
import { allOptions, loadHouseSchema, optionName, valueLabel } from "./house_schema.js";
import { presetLabel } from "./house_rules_badges.js";

const same = (a, b) => a === b || (a === null && b === undefined);

/**
 * Builds the form into `box` once the schema has come, starting from `initial` (a room's stored
 * house rules) if given. `edition()` and `turnSeconds()` read the rest of the form; call the
 * returned `sync()` when they change. `houseRules()` is the `house_rules` to send, or null for none.
 */
export function houseRulesForm(box, { edition, turnSeconds, initial = null }) {
  const state = { schema: null, options: [], byKey: {}, values: {}, preset: null, controls: {} };
  const api = {
    ready: loadHouseSchema().then((schema) => {
      build(box, state, schema, () => update(state, edition(), turnSeconds()), initial);
    }),
    sync: () => { if (state.schema) update(state, edition(), turnSeconds()); },
    houseRules: () => (state.schema ? houseRules(state, edition()) : null),
  };
  return api;
}

function isOn(state, key) {
  const option = state.byKey[key];
  return !same(state.values[key], option.default);
}

/** Why `key` may not take `value` (not its default) now, in words; null when it may. */
export function reasonFor(state, key, value, ed, timer) {
  const option = state.byKey[key];
  if ((option.refused[ed] || []).some((v) => v === value)) return t("house.why.edition", { edition: t(`edition.${ed}`) });
  for (const need of option.needs) if (!isOn(state, need)) return t("house.why.needs", { option: optionName(need) });
  if (option.needs_setting === "turn_seconds" && !timer) return t("house.why.turn_timer");
  for (const clash of option.conflicts) {
    const other = state.values[clash.key];
    if (!isOn(state, clash.key)) continue;
    if (clash.own && !clash.own.includes(value)) continue;
    if (clash.values && !clash.values.includes(other)) continue;
    return t("house.why.conflicts", { option: optionName(clash.key) });
  }
  return null;
}

function build(box, state, schema, onchange, initial) {
  state.schema = schema;
  state.options = allOptions(schema).filter((o) => o.available);
  for (const o of allOptions(schema)) {
    state.byKey[o.key] = o;
    state.values[o.key] = initial && o.key in initial ? initial[o.key] : o.default;
  }
  state.preset = (initial && schema.presets.find((p) => p.key === initial.preset)) || null;
  const presetSelect = h("select", { name: "house_preset", "data-testid": "house-preset" },
    h("option", { value: "", text: t("house.preset.none") }),
    schema.presets.map((p) => h("option", { value: p.key, disabled: !p.available,
      text: p.available ? t(`house.preset.${p.key}`) : `${t(`house.preset.${p.key}`)} — ${t("house.why.unavailable")}` })));
  const presetAbout = h("span", { class: "house-about", "data-testid": "house-preset-about" });
  presetSelect.addEventListener("change", () => {
    state.preset = schema.presets.find((p) => p.key === presetSelect.value) || null;
    for (const o of allOptions(schema)) state.values[o.key] = o.default;
    if (state.preset) Object.assign(state.values, state.preset.sets);
    onchange();
  });
  state.controls.preset = { select: presetSelect, about: presetAbout };
  const families = schema.families.map((family) => {
    const options = family.options.filter((o) => o.available);
    if (!options.length) return null;
    return h("fieldset", { class: "house-family", "data-testid": `house-family-${family.key}` },
      h("legend", { text: t(`house.family.${family.key}`) }),
      options.map((o) => optionRow(state, o, onchange)));
  });
  clear(box).append(h("legend", { text: t("home.house_rules") }),
    h("label", { class: "field house-preset" }, h("span", { text: t("house.preset.label") }), presetSelect), presetAbout,
    ...families.filter(Boolean));
  onchange();
}

function optionRow(state, option, onchange) {
  const testid = `house-${option.key}`;
  let control;
  if (option.kind === "bool") {
    control = h("input", { type: "checkbox", name: "house", value: option.key, "data-testid": testid });
    control.addEventListener("change", () => { state.values[option.key] = control.checked; onchange(); });
  } else if (option.kind === "number") {
    control = h("input", { type: "number", name: `house_${option.key}`, min: option.min, max: option.max, inputmode: "numeric", placeholder: t("house.off"), "data-testid": testid });
    control.addEventListener("input", () => {
      const n = Number(control.value);
      state.values[option.key] = control.value && Number.isInteger(n) ? Math.min(Math.max(n, option.min), option.max) : null;
      onchange();
    });
  } else {
    control = h("select", { name: `house_${option.key}`, "data-testid": testid },
      option.values.map((v, i) => h("option", { value: String(i), text: valueLabel(option, v) })));
    control.addEventListener("change", () => { state.values[option.key] = option.values[Number(control.value)]; onchange(); });
  }
  const why = h("span", { class: "house-why", "data-testid": `house-why-${option.key}`, hidden: true });
  const name = h("span", { class: "house-name", text: optionName(option.key) });
  const label = option.kind === "bool" ? h("label", {}, control, " ", name) : h("label", { class: "house-pick" }, name, " ", control);
  state.controls[option.key] = { control, why };
  return h("div", { class: "house-option", "data-testid": `house-option-${option.key}`, "data-key": option.key },
    label, h("span", { class: "house-about", text: t(`house.about.${option.key}`) }), why);
}

/** Drops what may no longer be on, then shows each control as it now stands. */
function update(state, ed, timer) {
  for (let changed = true; changed;) {
    changed = false;
    for (const o of allOptions(state.schema)) {
      if (isOn(state, o.key) && (!o.available || reasonFor(state, o.key, state.values[o.key], ed, timer))) {
        state.values[o.key] = o.default;
        changed = true;
      }
    }
  }
  for (const o of state.options) {
    const { control, why } = state.controls[o.key];
    const value = state.values[o.key];
    let reason = null;
    if (o.kind === "bool") {
      control.checked = value === true;
      reason = value ? null : reasonFor(state, o.key, true, ed, timer);
    } else if (o.kind === "number") {
      if (control.value !== (value === null ? "" : String(value))) control.value = value === null ? "" : String(value);
      reason = value === null ? reasonFor(state, o.key, o.min, ed, timer) : null;
    } else {
      const blocked = o.values.map((v) => (same(v, o.default) ? null : reasonFor(state, o.key, v, ed, timer)));
      [...control.options].forEach((opt, i) => {
        opt.disabled = Boolean(blocked[i]) && !same(o.values[i], value);
        opt.textContent = blocked[i] ? `${valueLabel(o, o.values[i])} — ${blocked[i]}` : valueLabel(o, o.values[i]);
      });
      control.value = String(o.values.findIndex((v) => same(v, value)));
      const rest = blocked.filter((b, i) => !same(o.values[i], o.default));
      reason = same(value, o.default) && rest.every(Boolean) ? rest[0] : null;
    }
    control.disabled = Boolean(reason);
    why.hidden = !reason;
    why.textContent = reason || "";
    control.closest(".house-option").classList.toggle("is-blocked", Boolean(reason));
  }
  const { select, about } = state.controls.preset;
  select.value = state.preset ? state.preset.key : "";
  const body = houseRules(state, ed);
  about.textContent = state.preset ? `${presetLabel(state.schema, body, ed)}: ${t(`house.preset.${state.preset.key}.about`)}` : "";
  about.hidden = !state.preset;
}

/** What to send: the preset and what differs from it (D-2), or the options that are on. */
function houseRules(state, ed) {
  const body = {};
  if (state.preset) body.preset = state.preset.key;
  for (const o of allOptions(state.schema)) {
    const fromPreset = state.preset && o.key in state.preset.sets && !(o.refused[ed] || []).includes(state.preset.sets[o.key]);
    const base = fromPreset ? state.preset.sets[o.key] : o.default;
    if (!same(state.values[o.key], base)) body[o.key] = state.values[o.key];
  }
  return Object.keys(body).length ? body : null;
}
