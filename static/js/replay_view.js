// A finished match played back on the match page: the table as it was after each move, with
// every hand face up (the match is over, so nothing is hidden), narrated like live play.
// The server replays the log (GET /api/matches/{id}/replay); this only renders its steps.
import { t } from "./i18n.js";
import { clear, h } from "./dom.js";
import { cardBackSvg, cardLabel, cardName, cardSvg, colourBadge, installDefs, s as svg, sortHand } from "./cards.js";
import { describe } from "./narrate.js";
import { creditedTotal, matchWinnerLine, roundLine, teamsOf } from "./credit.js";
import { atEnd, clamp, hands, interval, moveCounts, shareLink, step } from "./replay.js";

const SPEEDS = [0.5, 1, 2, 4];

// The buttons' marks, drawn (not characters some fonts lack), 16 × 16.
const MARKS = {
  first: "M3 2h2v12H3z M14 2v12L6 8z",
  back: "M12 2v12L4 8z",
  play: "M4 2v12l10-6z",
  pause: "M3 2h4v12H3z M9 2h4v12H9z",
  forward: "M4 2v12l8-6z",
  last: "M11 2h2v12h-2z M2 2v12l8-6z",
};

function mark(name) {
  return svg("svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true", focusable: "false" },
    svg("path", { d: MARKS[name], fill: "currentColor" }));
}

/** One step's events in words; a private event (seen by its seats only, then) names its seat. */
export function narrate(entry, nameOf) {
  if (entry.kind === "drew") {
    return t("replay.drew", { name: nameOf(entry.seat), cards: (entry.cards || []).map(cardName).join(", ") });
  }
  if (entry.kind === "turned_up") { // HR-33: a seat's face-down cards, seen by it from then on
    return t("replay.turned_up", { name: nameOf(entry.seat), cards: (entry.cards || []).map(cardName).join(", ") });
  }
  return describe(entry, nameOf);
}

/**
 * Mount the replay in `root`.  `start`: the position to open at ({ round, move }, clamped);
 * `onMove(pos)`: called after every move shown (the page keeps its address in step).
 */
export function mountReplay(root, doc, { nameOf, start, onMove }) {
  installDefs();
  const counts = moveCounts(doc);
  const teams = teamsOf(doc.config); // HR-26: partners' totals and wins are their team's
  const penalty = ((doc.config && doc.config.house) || {}).scoring === "penalty"; // HR-23
  let pos = clamp(counts, start || { round: 1, move: 0 });
  let timer = null;
  let speed = 1;

  const roundSelect = h("select", { "data-testid": "replay-round", "aria-label": t("replay.round") },
    doc.rounds.map((r) => h("option", { value: String(r.number), text: t("table.round", { n: r.number }) })));
  const slider = h("input", { type: "range", min: "0", step: "1", "data-testid": "replay-slider", "aria-label": t("replay.position") });
  const button = (testid, label, symbol, run) => {
    const el = h("button", { class: "btn btn-small", type: "button", "data-testid": testid, "aria-label": label, title: label }, mark(symbol));
    el.addEventListener("click", run);
    return el;
  };
  const first = button("replay-first", t("replay.first"), "first", () => go({ round: pos.round, move: 0 }));
  const back = button("replay-back", t("replay.back"), "back", () => go(step(counts, pos, -1)));
  const play = button("replay-play", t("replay.play"), "play", () => (timer ? pause() : resume()));
  const forward = button("replay-forward", t("replay.forward"), "forward", () => go(step(counts, pos, 1)));
  const last = button("replay-last", t("replay.last"), "last", () => go({ round: pos.round, move: counts[pos.round - 1] }));
  const speedSelect = h("select", { "data-testid": "replay-speed", "aria-label": t("replay.speed") },
    SPEEDS.map((s) => h("option", { value: String(s), selected: s === speed, text: `${s}×` })));
  const copied = h("span", { class: "muted", role: "status", "data-testid": "replay-copied" });
  const copy = h("button", { class: "btn btn-small", type: "button", "data-testid": "replay-copy-link", text: t("replay.copy_link") });
  const position = h("p", { class: "replay-position", "data-testid": "replay-position", "aria-live": "polite" });

  const els = {
    head: h("div", { class: "table-head" }),
    seats: h("ol", { class: "replay-seats", "data-testid": "replay-seats" }),
    drawCount: h("span", { class: "pile-count", "data-testid": "replay-draw-count" }),
    discard: h("div", { class: "pile discard", "data-testid": "replay-discard" }),
    colour: h("div", { class: "declared", "data-testid": "replay-colour" }),
    turn: h("div", { class: "turn-info" }),
    status: h("p", { class: "status-line", "data-testid": "replay-status" }),
    ticker: h("p", { class: "ticker", "data-testid": "replay-ticker" }),
    log: h("ol", { class: "log-list replay-log", "data-testid": "replay-log" }),
  };
  const tableEl = h("section", { class: "table-area replay-table", "data-testid": "replay-table", "aria-label": t("table.label") },
    els.head,
    h("div", { class: "centre" },
      h("div", { class: "pile draw-pile" }, h("span", { class: "pile-card" }, cardBackSvg()), els.drawCount),
      h("div", { class: "discard-wrap" }, els.discard, els.colour), els.turn),
    els.ticker, els.status, els.seats);
  const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.label") },
    h("label", { class: "replay-field" }, h("span", { text: t("replay.round") }), roundSelect),
    h("div", { class: "replay-buttons" }, first, back, play, forward, last),
    h("label", { class: "replay-field replay-slider" }, h("span", { text: t("replay.position") }), slider),
    h("label", { class: "replay-field" }, h("span", { text: t("replay.speed") }), speedSelect),
    h("div", { class: "replay-buttons" }, copy, copied));
  clear(root).append(
    h("h2", { id: "replay-title", text: t("replay.title") }),
    controls, position,
    h("div", { class: "replay-layout" }, tableEl,
      h("section", { class: "side-block log-block", "aria-label": t("replay.log") }, h("h3", { text: t("replay.log") }), els.log)));
  root.setAttribute("aria-labelledby", "replay-title");

  roundSelect.addEventListener("change", () => go({ round: Number(roundSelect.value), move: 0 }));
  slider.addEventListener("input", () => go({ round: pos.round, move: Number(slider.value) }, { keepPlaying: true }));
  speedSelect.addEventListener("change", () => {
    speed = Number(speedSelect.value);
    if (timer) { pause(); resume(); }
  });
  copy.addEventListener("click", async () => {
    const link = shareLink(location.href, pos);
    copy.dataset.link = link;
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // No clipboard (an insecure origin): the link is shown to copy by hand.
    }
    copied.textContent = `${t("replay.copied")} ${link}`;
  });
  root.addEventListener("keydown", (ev) => {
    const tag = ev.target && ev.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "ArrowRight") { go(step(counts, pos, 1)); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft") { go(step(counts, pos, -1)); ev.preventDefault(); }
  });

  function resume() {
    if (atEnd(counts, pos)) go({ round: 1, move: 0 });
    const tick = () => {
      if (atEnd(counts, pos)) { pause(); return; }
      go(step(counts, pos, 1), { keepPlaying: true });
    };
    timer = setInterval(tick, interval(speed));
    play.replaceChildren(mark("pause"));
    play.setAttribute("aria-label", t("replay.pause"));
    play.title = t("replay.pause");
    play.dataset.playing = "true";
    position.setAttribute("aria-live", "off"); // quiet while it plays: no announcement at every move
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    play.replaceChildren(mark("play"));
    play.setAttribute("aria-label", t("replay.play"));
    play.title = t("replay.play");
    play.dataset.playing = "false";
    position.setAttribute("aria-live", "polite");
  }

  function go(next, { keepPlaying = false } = {}) {
    if (!keepPlaying && timer) pause();
    pos = clamp(counts, next);
    render();
    if (onMove) onMove(pos);
  }

  function render() {
    const rnd = doc.rounds[pos.round - 1];
    const current = rnd.steps[pos.move];
    const s = current.state;
    const total = counts[pos.round - 1];
    roundSelect.value = String(rnd.number);
    slider.max = String(total);
    slider.value = String(pos.move);
    first.disabled = back.disabled = pos.round === 1 && pos.move === 0;
    forward.disabled = atEnd(counts, pos);
    last.disabled = pos.move === total;
    position.textContent = `${t("table.round", { n: rnd.number })} · ${pos.move === 0 ? t("replay.deal") : t("replay.move", { n: pos.move, total })}`;
    root.dataset.round = String(rnd.number);
    root.dataset.move = String(pos.move);

    clear(els.head).append(
      h("span", { class: "edition-tag", text: t(`edition.${doc.config.edition}`) }),
      h("span", { text: t("table.round", { n: rnd.number }) }),
      h("span", { class: "muted", text: t("table.dealer", { name: nameOf(rnd.dealer) }) }));

    els.drawCount.textContent = String(s.draw_pile);
    const top = doc.cards[s.top];
    clear(els.discard).append(h("div", { class: "top-card", role: "img", "data-testid": "replay-top", "data-card-id": s.top, "aria-label": t("table.top_card", { card: cardLabel(top) }) }, cardSvg(top)));
    clear(els.colour);
    els.colour.dataset.colour = s.colour || "";
    if (s.colour) els.colour.append(colourBadge(s.colour, 20), h("span", { text: t("table.colour_is", { colour: t(`colour.${s.colour}`) }) }));
    const cw = s.direction === 1;
    clear(els.turn).append(
      h("span", { class: `direction ${cw ? "cw" : "ccw"}`, role: "img", "aria-label": cw ? t("table.clockwise") : t("table.counter_clockwise") }, cw ? "↻" : "↺"),
      h("span", { class: "direction-label", text: cw ? t("table.clockwise") : t("table.counter_clockwise") }));

    if (s.winner !== null && s.winner !== undefined) {
      const over = atEnd(counts, pos) && doc.winner !== null && doc.winner !== undefined;
      // Under HR-27 the round and the match are a team's (credit.js, as the table says them).
      els.status.textContent = roundLine(teams, s.winner, rnd.points ?? 0, nameOf, penalty)
        + (over ? ` ${matchWinnerLine(teams, doc.winner, nameOf)}` : "");
    } else if (s.pending) {
      els.status.textContent = t(`pending.other.${s.pending.kind}`, { name: nameOf(s.pending.seat) });
    } else {
      els.status.textContent = "";
    }
    els.ticker.textContent = current.events.map((e) => narrate(e, nameOf)).join(" · ");

    clear(els.seats);
    const cards = hands(doc, s);
    cards.forEach((hand, seat) => {
      const turn = s.winner === null && s.current === seat;
      const said = s.declared.includes(seat);
      const exposed = s.exposed.includes(seat);
      const row = h("div", { class: "replay-hand", role: "group", "data-testid": "replay-hand", "aria-label": t("replay.hand_label", { name: nameOf(seat), n: hand.length }) });
      for (const c of sortHand(hand)) row.append(h("span", { class: "replay-card", role: "img", "data-card-id": c.id, "aria-label": cardLabel(c) }, cardSvg(c)));
      els.seats.append(h("li", { class: `opponent replay-seat${turn ? " turn" : ""}${exposed ? " exposed" : ""}`, "data-testid": "replay-seat", "data-seat": seat, "data-cards": hand.length },
        h("span", { class: "opp-top" },
          h("span", { class: "opp-name", text: nameOf(seat) }),
          seat === rnd.dealer ? h("span", { class: "badge badge-dealer", title: t("table.dealer_badge"), text: "D" }) : null,
          h("span", { class: "opp-count", text: t("table.cards", { n: hand.length }) }),
          h("span", { class: "opp-score", text: t("summary.total", { n: creditedTotal(teams, s.scores, seat) }) }),
          turn ? h("span", { class: "badge badge-turn", text: t("table.turn_badge") }) : null,
          s.winner === seat ? h("span", { class: "badge badge-turn", text: t("summary.went_out") }) : null,
          said && hand.length === 1 ? h("span", { class: "badge badge-uno", text: "UNO!" }) : null,
          exposed ? h("span", { class: "badge badge-warn", text: t("table.exposed") }) : null,
          s.skips_owed[seat] > 0 ? h("span", { class: "badge", text: t("table.skips_owed", { n: s.skips_owed[seat] }) }) : null),
        row));
    });

    // The round's narration up to here; this step's lines marked.
    clear(els.log);
    let mark = null;
    rnd.steps.slice(0, pos.move + 1).forEach((st, i) => {
      for (const e of st.events) {
        const li = h("li", { class: `log-entry log-${e.kind}${i === pos.move ? " current" : ""}`, "data-kind": e.kind, "data-move": i }, narrate(e, nameOf));
        els.log.append(li);
        if (i === pos.move && !mark) mark = li;
      }
    });
    els.log.scrollTop = els.log.scrollHeight;
  }

  render();
  return { go, position: () => pos };
}
