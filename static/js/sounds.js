// The table's sounds, synthesised with the Web Audio API (no files, nothing fetched): a card
// slapped on the pile, a card slid off the deck, a penalty's low slide, a little UNO! fanfare,
// a two-note chime for your turn and an "uh-oh" when you are caught.  Each is a few oscillators
// and filtered noise bursts with short envelopes, quiet under the master gain cues.js sets.

/** Noise, made once per context: every card sound filters a slice of it. */
const noises = new WeakMap();
function noise(ctx) {
  if (!noises.has(ctx)) {
    const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * 0.5), ctx.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < data.length; i += 1) data[i] = Math.random() * 2 - 1;
    noises.set(ctx, buffer);
  }
  return noises.get(ctx);
}

/** A gain envelope: silent, up to `level` in `attack` s, down to silence by `length` s. */
function envelope(ctx, out, at, { level, attack = 0.005, length }) {
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(level, at + attack);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  gain.connect(out);
  return gain;
}

/** A pitched voice: `type` wave from `freq` to `to` Hz over `length` s. */
function tone(ctx, out, at, { freq, to = freq, type = "sine", length = 0.12, level = 0.4, attack }) {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  osc.connect(envelope(ctx, out, at, { level, attack, length }));
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/** A burst of noise through a filter whose centre moves from `from` to `to` Hz. */
function rush(ctx, out, at, { type = "bandpass", from, to = from, q = 1, length, level, attack }) {
  const src = ctx.createBufferSource();
  src.buffer = noise(ctx);
  const filter = ctx.createBiquadFilter();
  filter.type = type;
  filter.Q.value = q;
  filter.frequency.setValueAtTime(from, at);
  if (to !== from) filter.frequency.exponentialRampToValueAtTime(to, at + length);
  src.connect(filter).connect(envelope(ctx, out, at, { level, attack, length }));
  src.start(at, Math.random() * 0.3, length + 0.05);
}

/** A mallet note (marimba-like): the fundamental and a quick, quieter fourth harmonic. */
function mallet(ctx, out, at, freq, level = 0.35) {
  tone(ctx, out, at, { freq, length: 0.5, level });
  tone(ctx, out, at, { freq: freq * 4, length: 0.08, level: level * 0.25 });
}

export const SOUNDS = {
  // A card slapped on the pile: a bright crack falling to a soft thump.
  card: (ctx, out, at) => {
    rush(ctx, out, at, { type: "lowpass", from: 5000, to: 700, length: 0.09, level: 0.7, attack: 0.002 });
    tone(ctx, out, at, { freq: 150, to: 70, length: 0.09, level: 0.35, attack: 0.002 });
  },
  // A card slid off the deck: a short swoosh rising in pitch.
  slide: (ctx, out, at) => rush(ctx, out, at, { from: 500, to: 2600, q: 1.4, length: 0.2, level: 0.45, attack: 0.06 }),
  // Cards you must take: the slide, and a low falling tone under it.
  draw: (ctx, out, at) => {
    SOUNDS.slide(ctx, out, at);
    tone(ctx, out, at + 0.05, { freq: 220, to: 150, type: "triangle", length: 0.3, level: 0.35 });
  },
  // UNO!: a rising major arpeggio ending on a held, shimmering octave.
  uno: (ctx, out, at) => {
    [523, 659, 784].forEach((f, i) => tone(ctx, out, at + i * 0.07, { freq: f, type: "triangle", length: 0.16, level: 0.3 }));
    tone(ctx, out, at + 0.21, { freq: 1047, type: "triangle", length: 0.45, level: 0.3 });
    tone(ctx, out, at + 0.21, { freq: 1053, length: 0.45, level: 0.12 }); // a slight beat: the shimmer
  },
  // Your turn: two soft mallet notes, up a fifth.
  turn: (ctx, out, at) => {
    mallet(ctx, out, at, 880);
    mallet(ctx, out, at + 0.11, 1319, 0.3);
  },
  // Caught: "uh-oh", two falling notes.
  caught: (ctx, out, at) => {
    tone(ctx, out, at, { freq: 330, to: 311, type: "triangle", length: 0.16, level: 0.4 });
    tone(ctx, out, at + 0.17, { freq: 247, to: 196, type: "triangle", length: 0.35, level: 0.45 });
  },
};

// A table that asks for reduced motion gets none of the game's flourishes: no cards on the move,
// no vibration and no sounds either, even with the sound toggle on (the words still say it all).
/** Of `cues`, those that sound: all of them, or none under reduced motion. */
export function audible(cues, reducedMotion) {
  return reducedMotion ? [] : cues;
}
