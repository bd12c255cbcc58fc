// Unit tests of static/js/sync.js: JSON Patch, seq handling, reconnect, resume and resend.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyPatch, backoffDelay, parsePointer, PatchError, RoomSync } from "../../static/js/sync.js";

test("pointer parsing unescapes ~1 and ~0", () => {
  assert.deepEqual(parsePointer(""), []);
  assert.deepEqual(parsePointer("/a~1b/c~0d/0"), ["a/b", "c~d", "0"]);
  assert.throws(() => parsePointer("a"), PatchError);
});

test("add, remove, replace on objects and arrays", () => {
  const before = { game: { table: { hand: [{ id: 1 }, { id: 2 }], top: "r1" } }, log: [] };
  const doc = applyPatch(before, [
    { op: "add", path: "/game/table/hand/1", value: { id: 9 } },
    { op: "remove", path: "/game/table/hand/0" },
    { op: "replace", path: "/game/table/top", value: "b2" },
    { op: "add", path: "/log/-", value: { n: 1 } },
    { op: "add", path: "/new", value: null },
  ]);
  assert.deepEqual(doc, { game: { table: { hand: [{ id: 9 }, { id: 2 }], top: "b2" } }, log: [{ n: 1 }], new: null });
  assert.deepEqual(before, { game: { table: { hand: [{ id: 1 }, { id: 2 }], top: "r1" } }, log: [] });
});

test("a patch leaves the view it patched and every object in it as they were (copy on write)", () => {
  // A choice begun from the hand holds the legal moves of the view it began in: a Seven-O 7's
  // plays at each seat.  The next frame turns those entries into plain plays of other cards.
  const before = { game: { table: { legal: [{ kind: "play", card: 7, target: 1 }, { kind: "play", card: 7, target: 2 }], top: "r7" } } };
  const held = before.game.table.legal.slice();
  const after = applyPatch(before, [
    { op: "remove", path: "/game/table/legal/0/target" },
    { op: "replace", path: "/game/table/legal/0/card", value: 12 },
    { op: "remove", path: "/game/table/legal/1/target" },
    { op: "replace", path: "/game/table/legal/1/card", value: 13 },
    { op: "replace", path: "/game/table/top", value: "b7" },
  ]);
  assert.deepEqual(after.game.table.legal, [{ kind: "play", card: 12 }, { kind: "play", card: 13 }]);
  assert.deepEqual(held, [{ kind: "play", card: 7, target: 1 }, { kind: "play", card: 7, target: 2 }]);
  assert.equal(before.game.table.top, "r7");
  // What the patch did not touch is shared, not copied: a frame costs what it changes.
  const other = { a: { big: [1, 2, 3] }, b: { x: 1 } };
  const next = applyPatch(other, [{ op: "replace", path: "/b/x", value: 2 }, { op: "add", path: "/b/y", value: 3 }]);
  assert.equal(next.a, other.a);
  assert.deepEqual(next.b, { x: 2, y: 3 });
  assert.deepEqual(other.b, { x: 1 });
});

test("move, copy and test follow RFC 6902", () => {
  let doc = { a: { b: 1 }, c: [1, 2, 3] };
  doc = applyPatch(doc, [
    { op: "copy", from: "/a", path: "/d" },
    { op: "move", from: "/c/0", path: "/c/-" },
    { op: "test", path: "/d", value: { b: 1 } },
  ]);
  assert.deepEqual(doc, { a: { b: 1 }, c: [2, 3, 1], d: { b: 1 } });
  assert.throws(() => applyPatch(doc, [{ op: "test", path: "/d/b", value: 2 }]), PatchError);
  assert.throws(() => applyPatch(doc, [{ op: "move", from: "/a", path: "/a/x" }]), PatchError);
});

test("replacing the root and values are copied, not shared", () => {
  const value = { x: [1] };
  const doc = applyPatch({ old: true }, [{ op: "replace", path: "", value }]);
  value.x.push(2);
  assert.deepEqual(doc, { x: [1] });
});

test("bad paths are refused", () => {
  assert.throws(() => applyPatch({ a: [] }, [{ op: "remove", path: "/a/0" }]), PatchError);
  assert.throws(() => applyPatch({ a: [] }, [{ op: "add", path: "/a/2", value: 1 }]), PatchError);
  assert.throws(() => applyPatch({}, [{ op: "replace", path: "/nope", value: 1 }]), PatchError);
  assert.throws(() => applyPatch({ a: [] }, [{ op: "add", path: "/a/01", value: 1 }]), PatchError);
  assert.throws(() => applyPatch({}, [{ op: "frob", path: "/a" }]), PatchError);
});

test("backoff grows, is capped and jittered", () => {
  const low = () => 0;
  const high = () => 0.999999;
  assert.equal(backoffDelay(0, low), 250);
  assert.equal(backoffDelay(3, low), 2000);
  assert.equal(backoffDelay(30, low), 5000);
  assert.ok(backoffDelay(30, high) <= 10000);
  assert.ok(backoffDelay(1, high) > backoffDelay(1, low));
});

// ------------------------------------------------------------------ a fake socket and clock

function harness() {
  const sockets = [];
  const timers = [];
  class FakeSocket {
    constructor(url) { this.url = url; this.sent = []; this.closed = false; sockets.push(this); }
    send(text) { this.sent.push(JSON.parse(text)); }
    close() { this.closed = true; }
    open() { this.onopen(); }
    frame(obj) { this.onmessage({ data: JSON.stringify(obj) }); }
    drop(code = 1006) { this.onclose({ code }); }
  }
  const views = [];
  const statuses = [];
  const replies = [];
  const errors = [];
  const sync = new RoomSync({
    url: (seq) => `ws://x/ws/rooms/AB?token=t${seq != null ? `&last_seq=${seq}` : ""}`,
    WebSocket: FakeSocket,
    setTimeout: (fn, ms) => { timers.push({ fn, ms }); return timers.length; },
    clearTimeout: () => {},
    random: () => 0,
    idPrefix: "p",
    onView: (v) => views.push(JSON.parse(JSON.stringify(v))),
    onStatus: (s, d) => statuses.push([s, d]),
    onReply: (f, sent) => replies.push([f, sent]),
    onError: (f) => errors.push(f),
  });
  const fire = () => { const t = timers.filter((x) => x.ms < 20000).pop(); timers.length = 0; t.fn(); };
  return { sync, sockets, timers, views, statuses, replies, errors, fire, last: () => sockets[sockets.length - 1] };
}

test("snapshot then patches in seq order build the view", () => {
  const h = harness();
  h.sync.connect();
  h.last().open();
  h.last().frame({ type: "snapshot", seq: 1, view: { n: 0, log: [] } });
  h.last().frame({ type: "patch", seq: 2, ops: [{ op: "replace", path: "/n", value: 1 }] });
  h.last().frame({ type: "patch", seq: 2, ops: [{ op: "replace", path: "/n", value: 99 }] }); // duplicate: ignored
  assert.deepEqual(h.sync.view, { n: 1, log: [] });
  assert.equal(h.sync.seq, 2);
  assert.equal(h.views.length, 2);
});

test("a seq gap reconnects and resumes from the last seq held", () => {
  const h = harness();
  h.sync.connect();
  h.last().open();
  h.last().frame({ type: "snapshot", seq: 4, view: { n: 0 } });
  h.last().frame({ type: "patch", seq: 6, ops: [{ op: "replace", path: "/n", value: 5 }] });
  assert.equal(h.sync.view.n, 0);
  assert.equal(h.sync.status, "reconnecting");
  h.fire();
  assert.match(h.last().url, /last_seq=4$/);
});

test("a patch that does not apply starts again from a snapshot", () => {
  const h = harness();
  h.sync.connect();
  h.last().open();
  h.last().frame({ type: "snapshot", seq: 1, view: { n: 0 } });
  h.last().frame({ type: "patch", seq: 2, ops: [{ op: "remove", path: "/missing" }] });
  h.fire();
  assert.doesNotMatch(h.last().url, /last_seq/);
});

test("a dropped socket reconnects with backoff and shows it is reconnecting", () => {
  const h = harness();
  h.sync.connect();
  h.last().open();
  h.last().frame({ type: "snapshot", seq: 3, view: {} });
  h.last().drop();
  assert.equal(h.sync.status, "reconnecting");
  assert.equal(h.timers.at(-1).ms, 250);
  h.fire();
  h.last().drop(); // the server is still down
  assert.equal(h.timers.at(-1).ms, 500);
  h.fire();
  assert.match(h.last().url, /last_seq=3$/);
  h.last().open();
  assert.equal(h.sync.status, "open");
  assert.equal(h.sync.attempt, 0);
  assert.deepEqual(h.statuses.map((s) => s[0]), ["connecting", "open", "reconnecting", "reconnecting", "open"]);
});

test("unacknowledged messages are resent with the same ids after a reconnect", async () => {
  const h = harness();
  h.sync.connect();
  h.last().open();
  h.last().frame({ type: "snapshot", seq: 1, view: {} });
  const first = h.sync.action({ kind: "draw" });
  h.sync.send({ type: "chat", text: "hi" });
  assert.deepEqual(h.last().sent.map((m) => m.id), ["p-1", "p-2"]);
  h.last().frame({ type: "ack", id: "p-1", seq: 2 });
  assert.deepEqual(await first, { type: "ack", id: "p-1", seq: 2 });
  h.last().drop();
  const third = h.sync.action({ kind: "keep" }); // sent while down: queued
  h.fire();
  h.last().open();
  assert.deepEqual(h.last().sent, [
    { type: "chat", text: "hi", id: "p-2" },
    { type: "action", action: { kind: "keep" }, id: "p-3" },
  ]);
  h.last().frame({ type: "error", id: "p-3", code: "not_your_turn", message: "Wait." });
  assert.equal((await third).code, "not_your_turn");
  assert.equal(h.sync.pending, 1);
  assert.equal(h.replies.at(-1)[1].action.kind, "keep");
});

test("a patch that carries an ack (?acks=in_patch) answers the move after its view is shown", async () => {
  const h = harness();
  h.sync.connect();
  h.last().open();
  h.last().frame({ type: "snapshot", seq: 1, view: { n: 0 } });
  const move = h.sync.action({ kind: "draw" });
  let shown = null;
  move.then(() => { shown = h.sync.view.n; });
  h.last().frame({ type: "patch", seq: 2, ops: [{ op: "replace", path: "/n", value: 1 }], ack: "p-1" });
  assert.deepEqual(await move, { type: "ack", id: "p-1", seq: 2 });
  assert.equal(shown, 1);
  assert.equal(h.sync.pending, 0);
  assert.equal(h.replies.at(-1)[1].action.kind, "draw");
  h.last().frame({ type: "patch", seq: 3, ops: [{ op: "replace", path: "/n", value: 2 }], ack: "p-1" }); // a replay
  assert.equal(h.sync.view.n, 2);
  assert.equal(h.replies.length, 1);
});

test("errors that answer nothing we sent are reported separately", () => {
  const h = harness();
  h.sync.connect();
  h.last().open();
  h.last().frame({ type: "error", id: null, code: "bad_token", message: "No." });
  assert.equal(h.errors.length, 1);
  assert.equal(h.replies.length, 0);
});

test("fatal close codes stop reconnecting", () => {
  for (const code of [4000, 4401, 4403, 4404, 4410]) {
    const h = harness();
    h.sync.connect();
    h.last().open();
    h.last().drop(code);
    assert.equal(h.sync.status, "closed");
    assert.equal(h.timers.filter((t) => t.ms < 20000).length, 0);
  }
});

test("a silent socket is dropped by the heartbeat and resumed", () => {
  const h = harness();
  let now = 0;
  h.sync.o.now = () => now;
  h.sync.connect();
  h.last().open();
  h.last().frame({ type: "snapshot", seq: 7, view: {} });
  const beat = h.timers.find((t) => t.ms === 20000);
  now = 20000;
  beat.fn();
  assert.deepEqual(h.last().sent.at(-1), { type: "ping" });
  now = 60000;
  h.timers.find((t) => t.ms === 20000 && t !== beat).fn();
  assert.equal(h.sync.status, "reconnecting");
  h.fire();
  assert.match(h.last().url, /last_seq=7$/);
});
