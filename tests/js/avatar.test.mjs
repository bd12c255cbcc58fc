// Avatars from names: stable, readable initials on colours that carry white text at 4.5:1.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.document = { documentElement: { lang: "en" } };
const { PALETTE, colourOf, hashName, initials } = await import("../../static/js/avatar.js");

function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

test("initials: two words give two letters, one word its first two, nothing a question mark", () => {
  assert.equal(initials("Ana Maria"), "AM");
  assert.equal(initials("bruno"), "BR");
  assert.equal(initials("  "), "?");
  assert.equal(initials("Łucja Żak"), "ŁŻ");
  assert.equal(initials("😀 smile"), "😀S"); // a code point, never half of one
});

test("the same name always gets the same colour, and names spread over the palette", () => {
  assert.equal(colourOf("Cleo"), colourOf("Cleo"));
  assert.equal(hashName("Cleo"), hashName("Cleo"));
  const used = new Set(["Ana", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"].map(colourOf));
  assert.ok(used.size >= 5, `${used.size} colours for 12 names`);
});

test("white initials read at 4.5:1 or more on every colour", () => {
  for (const hex of PALETTE) {
    const ratio = (1 + 0.05) / (luminance(hex) + 0.05);
    assert.ok(ratio >= 4.5, `${hex}: ${ratio.toFixed(2)}:1`);
  }
});

test("the stylesheet gives each avatar class its palette colour", async () => {
  const { readFile } = await import("node:fs/promises");
  const css = await readFile(new URL("../../static/css/app.css", import.meta.url), "utf8");
  PALETTE.forEach((hex, i) => assert.ok(css.includes(`.avatar-${i} { background: ${hex}; }`), `.avatar-${i}`));
});
