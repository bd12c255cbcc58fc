// Unit tests of static/js/text.js: names cut only between whole characters.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fitText, limitInput, NAME_MAX } from "../../static/js/text.js";

const FAMILY = "\u{1F469}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}"; // 7 code points, one grapheme

test("short text is kept as it is (after NFC)", () => {
  assert.equal(fitText("Ana", NAME_MAX), "Ana");
  assert.equal(fitText("Jose\u0301", NAME_MAX), "Jos\u00e9");
});

test("long text is cut at the limit in code points", () => {
  assert.equal(fitText("a".repeat(30), NAME_MAX), "a".repeat(24));
});

test("a zero-width-joiner sequence is never split", () => {
  const name = "a".repeat(20) + FAMILY;
  assert.equal(fitText(name, NAME_MAX), "a".repeat(20));
  const fits = "a".repeat(17) + FAMILY;
  assert.equal(fitText(fits + "b", NAME_MAX), fits);
});

test("an emoji outside the BMP is never halved", () => {
  const name = "a".repeat(23) + "\u{1F600}\u{1F600}";
  const cut = fitText(name, NAME_MAX);
  assert.equal(cut, "a".repeat(23) + "\u{1F600}");
  assert.ok(!/[\ud800-\udbff]$/.test(cut));
});

test("a flag (two regional indicators) stays whole", () => {
  const flag = "\u{1F1F8}\u{1F1EE}";
  assert.equal(fitText("a".repeat(23) + flag, NAME_MAX), "a".repeat(23));
});

// An input as limitInput uses it: a value, and its "input" listeners.
function fakeInput(value) {
  const listeners = [];
  return { value, addEventListener: (type, fn) => { if (type === "input") listeners.push(fn); },
           type(text) { this.value = text; listeners.forEach((fn) => fn()); } };
}

test("a limited input fits what was typed before it was limited, and what is typed after", () => {
  const early = "a".repeat(20) + FAMILY; // typed while the page's script was still loading
  const input = limitInput(fakeInput(early), NAME_MAX);
  assert.equal(input.value, "a".repeat(20));
  input.type("b".repeat(30));
  assert.equal(input.value, "b".repeat(24));
  assert.equal(limitInput(fakeInput("Ana"), NAME_MAX).value, "Ana");
});
