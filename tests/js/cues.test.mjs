// Unit tests of static/js/cues.js: which sound and vibration cues a new view calls for.
import { test } from "node:test";
import assert from "node:assert/strict";
import { buzzFor, pickCues } from "../../static/js/cues.js";
import { audible, SOUNDS } from "../../static/js/sounds.js";

const play = (seat) => ({ kind: "play", seat, card: { colour: "red", face: "5" } });

test("a card played by anyone sounds once, however many arrive together", () => {
  assert.deepEqual(pickCues([play(1), play(2)], 0, false, false), ["card"]);
  assert.deepEqual(pickCues([play(1)], null, false, false), ["card"]);
});

test("your turn ticks only when it becomes yours, after the news that led to it", () => {
  assert.deepEqual(pickCues([play(1)], 0, false, true), ["card", "turn"]);
  assert.deepEqual(pickCues([], 0, true, true), []);
  assert.deepEqual(pickCues([], null, false, true), []);
});

test("UNO! said by anyone chimes", () => {
  assert.deepEqual(pickCues([{ kind: "uno", seat: 2, early: false }], 0, false, false), ["uno"]);
});

test("being caught, or having to draw, is a low tone; a draw by choice slides; others' draws are silent", () => {
  const caught = [{ kind: "caught", seat: 0, by: 1 }, { kind: "draw", seat: 0, count: 2, reason: "caught" }];
  assert.deepEqual(pickCues(caught, 0, false, false), ["caught"]);
  assert.deepEqual(pickCues([{ kind: "caught", seat: 1, by: 0 }], 0, false, false), []);
  assert.deepEqual(pickCues([{ kind: "draw", seat: 0, count: 2, reason: "card" }], 0, false, false), ["draw"]);
  assert.deepEqual(pickCues([{ kind: "draw", seat: 0, count: 1, reason: "turn" }], 0, false, false), ["slide"]);
  assert.deepEqual(pickCues([{ kind: "draw", seat: 1, count: 4, reason: "card" }], 0, false, false), []);
});

test("only your turn and being caught vibrate, and never with reduced motion", () => {
  assert.ok(buzzFor("turn", false));
  assert.ok(buzzFor("caught", false));
  assert.equal(buzzFor("card", false), null);
  assert.equal(buzzFor("turn", true), null);
  assert.equal(buzzFor("caught", true), null);
});

test("under reduced motion the sounds of cards on the move are silent; the ones that tell you something are not", () => {
  const all = ["card", "slide", "draw", "uno", "turn", "caught"];
  assert.deepEqual(audible(all, false), all);
  assert.deepEqual(audible(all, true), []);
  for (const cue of all) assert.equal(typeof SOUNDS[cue], "function", cue);
});

// A Web Audio stand-in that records what each sound schedules: nodes, starts, and that every
// envelope returns to silence (no sound is left ringing).
function fakeAudio() {
  const log = { oscillators: 0, noises: 0, starts: 0, silentEnds: 0, envelopes: 0 };
  const param = (isGain) => ({
    value: 0,
    setValueAtTime() {},
    exponentialRampToValueAtTime(v) { if (isGain && v <= 0.0001) log.silentEnds += 1; },
  });
  const node = (extra = {}) => ({ connect: (next) => next, ...extra });
  const ctx = {
    sampleRate: 8000, currentTime: 0, destination: node(),
    createBuffer: (channels, length) => ({ getChannelData: () => new Float32Array(length) }),
    createGain: () => { log.envelopes += 1; return node({ gain: param(true) }); },
    createOscillator: () => { log.oscillators += 1; return node({ frequency: param(false), start() { log.starts += 1; }, stop() {} }); },
    createBufferSource: () => { log.noises += 1; return node({ start() { log.starts += 1; } }); },
    createBiquadFilter: () => node({ frequency: param(false), Q: param(false) }),
  };
  return { ctx, log };
}

test("each sound is synthesised from oscillators and noise, every voice started and faded out", () => {
  for (const cue of Object.keys(SOUNDS)) {
    const { ctx, log } = fakeAudio();
    SOUNDS[cue](ctx, ctx.destination, 0);
    assert.ok(log.starts >= 1, `${cue} starts nothing`);
    assert.equal(log.starts, log.oscillators + log.noises, cue);
    assert.equal(log.silentEnds, log.envelopes, `${cue}: an envelope does not end in silence`);
  }
  // More than a beep: the card sounds are noise, the chimes several notes.
  const card = fakeAudio();
  SOUNDS.card(card.ctx, card.ctx.destination, 0);
  assert.equal(card.log.noises, 1);
  const uno = fakeAudio();
  SOUNDS.uno(uno.ctx, uno.ctx.destination, 0);
  assert.ok(uno.log.oscillators >= 4);
});
