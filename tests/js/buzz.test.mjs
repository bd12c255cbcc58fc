// Unit tests of static/js/phone/buzz.js: when the phone buzzes, and that its switch holds.
import { test } from "node:test";
import assert from "node:assert/strict";

const store = new Map();
globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, String(v)) };
const buzzes = [];
Object.defineProperty(globalThis, "navigator", { value: { vibrate: (p) => { buzzes.push(p); return true; } }, configurable: true });
let reduced = false;
globalThis.matchMedia = () => ({ matches: reduced });

const { Buzzer, BUZZ_KEY } = await import("../../static/js/phone/buzz.js");

const view = (log) => ({ you: 0, log });

test("on by default: your turn and being caught buzz, nothing on the first view", () => {
  buzzes.length = 0;
  const b = new Buzzer();
  assert.equal(b.on, true);
  // A page opened (attention.js announces no call on a first view): an old catch in the log is not news.
  assert.equal(b.notice(view([{ n: 1, kind: "caught", seat: 0 }]), null), null);
  assert.equal(b.notice(view([{ n: 2, kind: "play", seat: 1 }]), "turn"), "turn");
  assert.equal(b.notice(view([{ n: 3, kind: "caught", seat: 0 }]), null), "caught");
  assert.equal(b.notice(view([{ n: 4, kind: "caught", seat: 1 }]), null), null); // someone else caught
  assert.equal(b.notice(view([{ n: 5, kind: "play", seat: 1 }]), "catch"), null); // a catch is not your turn
  assert.equal(buzzes.length, 2);
});

test("off: remembered on the device, and nothing buzzes; reduced motion buzzes nothing either", () => {
  buzzes.length = 0;
  const b = new Buzzer();
  b.set(false);
  assert.equal(store.get(BUZZ_KEY), "off");
  assert.equal(new Buzzer().on, false);
  b.notice(view([]), null);
  assert.equal(b.notice(view([{ n: 1, kind: "play", seat: 1 }]), "turn"), null);
  b.set(true);
  reduced = true;
  assert.equal(b.notice(view([{ n: 2, kind: "play", seat: 1 }]), "challenge"), null);
  reduced = false;
  assert.equal(b.notice(view([{ n: 3, kind: "play", seat: 1 }]), "challenge"), "turn");
  assert.equal(buzzes.length, 1);
});
