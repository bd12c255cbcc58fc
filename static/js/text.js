// What people type, kept within the server's limits without breaking a character apart.
//
// The server counts a name's characters as Unicode code points after NFC (app/rooms/seating.py).
// An input's maxlength counts UTF-16 units instead and cuts wherever it lands: in the middle of
// an emoji, or of a family joined by zero-width joiners.  fitText cuts only between whole
// graphemes (what a reader sees as one character), keeping the code-point count within max.

export const NAME_MAX = 24;

function graphemes(text) {
  if (typeof Intl !== "undefined" && Intl.Segmenter) {
    return Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text), (s) => s.segment);
  }
  // Without a segmenter: code points, each joiner, variation selector, modifier or combining
  // mark kept with the character before it, and the character after a joiner kept with both.
  const out = [];
  let glue = false;
  for (const ch of Array.from(text)) {
    const joins = /[\u200d\ufe0e\ufe0f\u{1f3fb}-\u{1f3ff}\p{M}]/u.test(ch);
    if (out.length && (joins || glue)) out[out.length - 1] += ch;
    else out.push(ch);
    glue = ch === "\u200d";
  }
  return out;
}

export function fitText(text, max) {
  const whole = String(text ?? "").normalize("NFC");
  if (Array.from(whole).length <= max) return whole;
  let kept = "";
  let count = 0;
  for (const g of graphemes(whole)) {
    const n = Array.from(g).length;
    if (count + n > max) break;
    kept += g;
    count += n;
  }
  return kept;
}

// Keeps an input's value within max characters as it is typed or pasted, and what was typed
// before the page's script took the form over (the script waits for its words to load).
export function limitInput(input, max) {
  const fit = () => {
    const fitted = fitText(input.value, max);
    if (fitted !== input.value) input.value = fitted;
  };
  input.addEventListener("input", fit);
  fit();
  return input;
}
