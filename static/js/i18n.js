// One catalogue per language (static/i18n/{lang}.json); the server already chose the language
// and set <html lang>.  English fills any gap, then the key itself.
let strings = {};
let fallback = {};

export const LANGUAGES = ["en", "pl", "sl", "gl"];

export function currentLang() {
  const lang = document.documentElement.lang;
  // "xx": the test-only pseudo-language, which the server sets only when started for tests.
  return LANGUAGES.includes(lang) || lang === "xx" ? lang : "en";
}

async function fetchCatalogue(lang) {
  const res = await fetch(`/static/i18n/${lang}.json`, { cache: "force-cache" });
  if (!res.ok) throw new Error(`catalogue ${lang}: ${res.status}`);
  return res.json();
}

export async function loadCatalogue(lang = currentLang()) {
  fallback = await fetchCatalogue("en");
  strings = lang === "en" ? fallback : await fetchCatalogue(lang).catch(() => ({}));
}

/** The text for `key`, with `{name}` placeholders filled from `params`.  One of a thing has
 * words of its own where the catalogues give them (`key_one`: "1 card", not "1 cards"). */
export function t(key, params = {}) {
  if (params.n === 1 && has(`${key}_one`)) key = `${key}_one`;
  let text = strings[key] ?? fallback[key] ?? key;
  for (const [name, value] of Object.entries(params)) text = text.split(`{${name}}`).join(String(value));
  return text;
}

export function has(key) {
  return key in strings || key in fallback;
}
