// RFC 6902 JSON Patch, as the room's frames carry it (docs/PROTOCOL.md), with no DOM: the
// view a patch is applied to stays as it was, the patched one is returned (copy on write).

export class PatchError extends Error {}

const unescape = (token) => token.replace(/~1/g, "/").replace(/~0/g, "~");

export function parsePointer(pointer) {
  if (pointer === "") return [];
  if (pointer[0] !== "/") throw new PatchError(`bad JSON pointer ${JSON.stringify(pointer)}`);
  return pointer.slice(1).split("/").map(unescape);
}

function clone(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
}

function arrayIndex(arr, token, forAdd) {
  if (forAdd && token === "-") return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`bad array index ${token}`);
  const i = Number(token);
  if (i > arr.length || (!forAdd && i === arr.length)) throw new PatchError(`index ${i} out of range`);
  return i;
}

// Copy on write: a patch copies each container on the paths it changes (once per patch) and
// leaves the view it was given as it was.  Whatever holds objects of an earlier view — a choice
// begun from the hand holds that view's legal moves — keeps them as they were: patched in
// place, a later frame turned a Seven-O 7's plays at each seat into other moves with no
// `target` under a choice still open, whose buttons then named "seat-undefined".
class Writer {
  constructor() {
    this.fresh = new WeakSet(); // the containers this patch copied: written to in place
  }

  own(value) {
    if (value === null || typeof value !== "object" || this.fresh.has(value)) return value;
    const copy = Array.isArray(value) ? value.slice() : { ...value };
    this.fresh.add(copy);
    return copy;
  }

  /** The document, and the parent of `tokens`' last, both writable (copied when not this patch's). */
  parentOf(doc, tokens) {
    const root = this.own(doc);
    let node = root;
    for (const token of tokens.slice(0, -1)) {
      let key;
      if (Array.isArray(node)) key = arrayIndex(node, token, false);
      else if (node !== null && typeof node === "object" && Object.prototype.hasOwnProperty.call(node, token)) key = token;
      else throw new PatchError(`path not found at ${token}`);
      node[key] = this.own(node[key]);
      node = node[key];
    }
    if (node === null || typeof node !== "object") throw new PatchError("parent is not a container");
    return [root, node];
  }

  add(doc, tokens, value) {
    if (tokens.length === 0) return value;
    const [root, parent] = this.parentOf(doc, tokens);
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true), 0, value);
    else parent[last] = value;
    return root;
  }

  remove(doc, tokens) {
    if (tokens.length === 0) throw new PatchError("cannot remove the whole document");
    const [root, parent] = this.parentOf(doc, tokens);
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, false), 1);
    else if (Object.prototype.hasOwnProperty.call(parent, last)) delete parent[last];
    else throw new PatchError(`nothing to remove at ${last}`);
    return root;
  }
}

function get(doc, tokens) {
  let node = doc;
  for (const token of tokens) {
    if (Array.isArray(node)) node = node[arrayIndex(node, token, false)];
    else if (node !== null && typeof node === "object" && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
    else throw new PatchError(`path not found at ${token}`);
  }
  return node;
}

/** Apply a JSON Patch.  Returns the new document; `doc` and every object in it stay as they were. */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new PatchError("a patch is a list of operations");
  const w = new Writer();
  for (const op of ops) {
    const tokens = parsePointer(op.path);
    switch (op.op) {
      case "add": doc = w.add(doc, tokens, clone(op.value)); break;
      case "remove": doc = w.remove(doc, tokens); break;
      case "replace":
        if (tokens.length === 0) { doc = clone(op.value); break; }
        get(doc, tokens);
        doc = w.add(w.remove(doc, tokens), tokens, clone(op.value));
        break;
      case "move": {
        const from = parsePointer(op.from);
        if (op.path.startsWith(op.from + "/")) throw new PatchError("cannot move a value into itself");
        const value = get(doc, from);
        doc = w.add(w.remove(doc, from), tokens, value);
        break;
      }
      case "copy": doc = w.add(doc, tokens, clone(get(doc, parsePointer(op.from)))); break;
      case "test":
        if (!deepEqual(get(doc, tokens), op.value)) throw new PatchError(`test failed at ${op.path}`);
        break;
      default: throw new PatchError(`unknown op ${op.op}`);
    }
  }
  return doc;
}
