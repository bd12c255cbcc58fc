// Keeping a room's view in step with the server, with no DOM: applying RFC 6902 patches
// (json_patch.js), checking `seq`, reconnecting with backoff, resuming from the last seq and
// resending unacknowledged messages with their ids.  Pure enough for Node's test runner.
import { applyPatch } from "./json_patch.js";

export { applyPatch, parsePointer, PatchError } from "./json_patch.js";

/** Reconnect delays: exponential, capped, with jitter so a room's clients do not return in a herd. */
export function backoffDelay(attempt, random = Math.random, base = 500, max = 10000) {
  const ceiling = Math.min(max, base * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

// Close codes after which reconnecting cannot help (see app/rooms/errors.py).
export const FATAL_CLOSES = {
  4000: "replaced", // the same seat connected elsewhere
  4401: "bad_token",
  4403: "removed",
  4404: "no_room",
  4410: "room_closed",
  4431: "screen_revoked", // a big screen's key was revoked (or is wrong): the page says so
};

/**
 * One room connection.  `options`:
 *   url(lastSeq) -> string       the socket URL (token and last_seq in the query)
 *   WebSocket                    the constructor (the browser's, or a fake in tests)
 *   setTimeout / clearTimeout / random / now   injectable for tests
 *   onView(view, frame)          after every snapshot or patch
 *   onStatus(status, detail)     "connecting" | "open" | "reconnecting" | "closed"
 *   onReply(frame, sent)         ack / error for a message we sent (sent: the message, if known)
 *   onError(frame)               an error frame that answers no message of ours
 */
export class RoomSync {
  constructor(options) {
    this.o = {
      setTimeout: (...a) => globalThis.setTimeout(...a),
      clearTimeout: (...a) => globalThis.clearTimeout(...a),
      random: Math.random,
      now: () => Date.now(),
      heartbeatMs: 20000,
      idPrefix: Math.random().toString(36).slice(2, 8),
      onView() {}, onStatus() {}, onReply() {}, onError() {},
      ...options,
    };
    this.view = null;
    this.seq = 0;
    this.ws = null;
    this.status = "idle";
    this.attempt = 0;
    this.counter = 0;
    this.outbox = new Map(); // id -> message, in sending order: unacknowledged
    this.waiters = new Map(); // id -> resolve
    this.timer = null;
    this.heartbeat = null;
    this.lastHeard = 0;
    this.stopped = false;
  }

  get pending() { return this.outbox.size; } // messages sent and not yet answered

  nextId() {
    this.counter += 1;
    return `${this.o.idPrefix}-${this.counter}`;
  }

  setStatus(status, detail) {
    this.status = status;
    this.o.onStatus(status, detail);
  }

  connect() {
    if (this.stopped) return;
    this.o.clearTimeout(this.timer);
    this.timer = null;
    const resume = this.view !== null && this.seq > 0 ? this.seq : null;
    if (this.status !== "reconnecting") this.setStatus("connecting");
    const ws = new this.o.WebSocket(this.o.url(resume));
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.lastHeard = this.o.now();
      this.setStatus("open");
      for (const msg of this.outbox.values()) ws.send(JSON.stringify(msg));
      this.startHeartbeat();
    };
    ws.onmessage = (event) => {
      if (this.ws !== ws) return;
      this.lastHeard = this.o.now();
      let frame;
      try { frame = JSON.parse(event.data); } catch { return; }
      this.receive(frame);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopHeartbeat();
      const fatal = FATAL_CLOSES[event && event.code];
      if (fatal || this.stopped) {
        this.setStatus("closed", { code: event && event.code, reason: fatal || "stopped" });
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => {};
  }

  scheduleReconnect() {
    if (this.stopped || this.timer !== null) return;
    const delay = backoffDelay(this.attempt, this.o.random);
    this.attempt += 1;
    this.setStatus("reconnecting", { attempt: this.attempt, delay });
    this.timer = this.o.setTimeout(() => { this.timer = null; this.connect(); }, delay);
  }

  /** Drop the socket and come back (from the last seq, unless `fresh`). */
  restart(fresh = false) {
    if (fresh) { this.view = null; this.seq = 0; }
    const ws = this.ws;
    this.ws = null;
    this.stopHeartbeat();
    if (ws) { try { ws.close(); } catch { /* already gone */ } }
    this.scheduleReconnect();
  }

  stop() {
    this.stopped = true;
    this.o.clearTimeout(this.timer);
    this.stopHeartbeat();
    if (this.ws) { const ws = this.ws; this.ws = null; try { ws.close(); } catch { /* gone */ } }
    this.setStatus("closed", { reason: "stopped" });
  }

  startHeartbeat() {
    this.stopHeartbeat();
    const beat = () => {
      if (!this.ws) return;
      if (this.o.now() - this.lastHeard > this.o.heartbeatMs * 2.5) { this.restart(); return; }
      try { this.ws.send(JSON.stringify({ type: "ping" })); } catch { /* closing */ }
      this.heartbeat = this.o.setTimeout(beat, this.o.heartbeatMs);
    };
    this.heartbeat = this.o.setTimeout(beat, this.o.heartbeatMs);
  }

  stopHeartbeat() {
    if (this.heartbeat !== null) this.o.clearTimeout(this.heartbeat);
    this.heartbeat = null;
  }

  receive(frame) {
    switch (frame.type) {
      case "snapshot":
        this.view = frame.view;
        this.seq = frame.seq;
        this.o.onView(this.view, frame);
        break;
      case "patch":
        if (this.view === null) { this.restart(true); return; }
        if (frame.seq <= this.seq) return; // already have it (a replay overlap)
        if (frame.seq !== this.seq + 1) { this.restart(); return; } // a gap: resume from what we hold
        try {
          this.view = applyPatch(this.view, frame.ops);
        } catch {
          this.restart(true); // our copy is wrong: start again from a snapshot
          return;
        }
        this.seq = frame.seq;
        this.o.onView(this.view, frame);
        if (frame.ack != null) this.receive({ type: "ack", id: frame.ack, seq: frame.seq }); // ?acks=in_patch
        break;
      case "ack":
      case "error":
      case "pong": {
        const id = frame.id;
        const sent = id != null ? this.outbox.get(id) : undefined;
        if (id != null) this.outbox.delete(id);
        const resolve = id != null ? this.waiters.get(id) : undefined;
        if (resolve) { this.waiters.delete(id); resolve(frame); }
        if (frame.type === "pong") break;
        if (sent !== undefined || resolve) this.o.onReply(frame, sent);
        else if (frame.type === "error") this.o.onError(frame);
        break;
      }
      default:
        break;
    }
  }

  /** Send a message with an id; it is resent after a reconnect until the server answers it. */
  send(message) {
    const msg = { ...message, id: message.id || this.nextId() };
    this.outbox.set(msg.id, msg);
    if (this.ws && this.status === "open") {
      try { this.ws.send(JSON.stringify(msg)); } catch { /* resent on reconnect */ }
    }
    return new Promise((resolve) => this.waiters.set(msg.id, resolve));
  }

  action(action) {
    return this.send({ type: "action", action });
  }
}
