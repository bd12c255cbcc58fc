// One of a thing has words of its own: "1 card", never "1 cards" (static/js/i18n.js, `key_one`).
import { test } from "node:test";
import assert from "node:assert/strict";

import "./catalogues.mjs";
const { loadCatalogue, t } = await import("../../static/js/i18n.js");

test("a count of one takes the singular in every language; other counts keep the plural", async () => {
  const expected = {
    en: ["1 card", "2 cards", "0 cards", "Ana: 1 card, online"],
    pl: ["1 karta", "kart: 2", "kart: 0", "Ana: 1 karta, online"],
    sl: ["1 karta", "kart: 2", "kart: 0", "Ana: 1 karta, online"],
    gl: ["1 carta", "2 cartas", "0 cartas", "Ana: 1 carta, online"],
  };
  for (const [lang, [one, two, none, label]] of Object.entries(expected)) {
    await loadCatalogue(lang);
    assert.equal(t("table.cards", { n: 1 }), one, lang);
    assert.equal(t("table.cards", { n: 2 }), two, lang);
    assert.equal(t("table.cards", { n: 0 }), none, lang);
    assert.equal(t("table.opponent_label", { name: "Ana", n: 1, state: "online" }), label, lang);
  }
});

test("the watchers' count takes its singular the same way", async () => {
  await loadCatalogue("en");
  assert.equal(t("watch.count", { n: 1 }), "1 watching");
  assert.equal(t("watch.count", { n: 3 }), "3 watching");
});
