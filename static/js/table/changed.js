// A region redraws only when its part of the table model differs from the one it drew last:
// the models are plain data, so deep equality (same()) says so without hand-made signatures.
import { same } from "./decision.js";

const drawn = new WeakMap(); // element -> the model it shows (a new element starts afresh)

/** Whether `el` must be redrawn for `model`; remembers `model` as drawn when it must. */
export function changed(el, model) {
  if (drawn.has(el) && same(drawn.get(el), model)) return false;
  // A copy: what was drawn stays as it was drawn.  (Frames no longer change a view's objects in
  // place, json_patch.js, but a model may carry objects of the page's own local state.)
  drawn.set(el, structuredClone(model));
  return true;
}
