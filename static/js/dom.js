// Tiny DOM helpers.  Text always goes in through textContent: names and chat are untrusted.
import { t } from "./i18n.js";
import { errorText } from "./errors.js";
import { cachedHouseSchema, loadHouseSchema, ruleLabel, rulesOn } from "./house_schema.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function toast(text, kind = "info", ms = 4000) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: `toast toast-${kind}`, "data-testid": "toast", text });
  box.append(item);
  while (box.children.length > 4) box.firstChild.remove();
  setTimeout(() => item.remove(), ms);
}

export async function api(method, path, body, headers = {}) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json", ...headers } : { ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await res.json(); } catch { /* empty body */ }
  if (!res.ok) {
    // Worded from the error's code (and params) in the reader's language, never the server's English.
    const detail = data && data.detail;
    const code = detail && typeof detail === "object" && !Array.isArray(detail) ? detail.code : null;
    const err = new Error(errorText(code, detail && detail.params, undefined, { http: true }));
    err.status = res.status;
    err.code = code;
    err.params = (detail && detail.params) || null;
    throw err;
  }
  return data;
}

/** The language picker in the header: navigating with ?lang= makes the server remember it. */
export function initLanguagePicker() {
  const select = document.getElementById("lang-select");
  if (!select) return;
  select.addEventListener("change", () => {
    const url = new URL(window.location.href);
    url.searchParams.set("lang", select.value);
    window.location.href = url.toString();
  });
  select.dataset.live = "true"; // a choice made from now on is acted on (tests wait for it)
}

export function storedName() {
  try { return localStorage.getItem("uno.name") || ""; } catch { return ""; }
}

export function rememberName(name) {
  try { localStorage.setItem("uno.name", name); } catch { /* private mode */ }
}

export function seatKey(code) {
  return `uno.seat.${code}`;
}

export function loadSeat(code) {
  try { return JSON.parse(localStorage.getItem(seatKey(code)) || "null"); } catch { return null; }
}

export function saveSeat(code, seat) {
  try { localStorage.setItem(seatKey(code), JSON.stringify(seat)); } catch { /* private mode */ }
}

export function forgetSeat(code) {
  try { localStorage.removeItem(seatKey(code)); } catch { /* private mode */ }
}

/** The labels of the room's house rules that are on: from the server's schema once it has come
 * (asked for here, so the next render has it); until then the on/off options that are on, by
 * their names (a room's stored house rules hold every option, in the schema's order), and a
 * fixed number of rounds. */
function houseLabels(rules) {
  const schema = cachedHouseSchema();
  if (schema) return rulesOn(schema, rules).map(({ option, value }) => ruleLabel(option, value));
  loadHouseSchema().catch(() => {});
  const on = Object.keys(rules).filter((r) => rules[r] === true).map((r) => t(`house.name.${r}`));
  return rules.rounds ? [...on, t("house.rounds", { n: rules.rounds })] : on;
}

/** Whether `optionsText` has anything to say (a room's stored house rules hold every key, most at their default). */
export function hasOptions(room) {
  return !!room.turn_seconds || houseLabels(room.house_rules || {}).length > 0;
}

/** The room's options in words: its house rules and its turn timer. */
export function optionsText(room) {
  const on = houseLabels(room.house_rules || {});
  const parts = [on.length ? t("room.house_rules", { rules: on.join(", ") }) : t("room.no_house_rules")];
  if (room.turn_seconds) parts.push(t("room.turn_timer", { n: room.turn_seconds }));
  return parts.join(" · ");
}
