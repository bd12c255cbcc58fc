// The side panel: every player's score, the log told as a person would (logbook.js) and the
// chat with its unread badge (chatbadge.js).  Built once and kept across the waiting room and
// the table, so a line being typed survives; each part is redrawn only when it changes.
import { t } from "./i18n.js";
import { clear, h, hasOptions } from "./dom.js";
import { showRoomOptions } from "./house_rules_badges.js";
import { logLines } from "./logbook.js";
import { ChatBadge } from "./chatbadge.js";
import { chatAuthor } from "./spectate.js";
import { changed } from "./table/changed.js";
import { teamName, teamsModel } from "./table/sides.js";
import { creditedTotal } from "./credit.js";

/** HR-27: the teams' totals, best first, each with its two players (yours marked). */
function teamScores(view, nameOf) {
  const teams = teamsModel(view, nameOf);
  if (!teams) return null;
  const list = h("ol", { class: "score-list team-scores", "data-testid": "team-scores" });
  for (const row of teams) {
    list.append(h("li", { class: `team-row team-${row.team}${row.mine ? " is-me" : ""}`, "data-testid": "team-score", "data-team": row.team },
      h("span", { class: "score-name" }, h("span", { class: `badge badge-team team-${row.team}`, text: teamName(row.team) }), " ", h("span", { class: "team-names", text: row.names })),
      h("span", { class: "score-value", text: String(row.score) })));
  }
  return list;
}

export class SidePanel {
  /** `send` sends a message; `canChat()` says whether the reader may chat now; `closeDrawer` folds a phone's drawer. */
  constructor({ send, canChat, closeDrawer }) {
    this.canChat = canChat;
    this.log = h("ol", { class: "log-list", "data-testid": "event-log-list" });
    this.chatList = h("ol", { class: "chat-list", "data-testid": "chat-list" });
    this.input = h("input", { name: "chat", maxlength: 300, autocomplete: "off", "data-testid": "chat-input", "aria-label": t("chat.placeholder"), placeholder: t("chat.placeholder") });
    const form = h("form", { class: "chat-form" }, this.input,
      h("button", { class: "btn btn-small", type: "submit", "data-testid": "chat-send", text: t("chat.send") }));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = this.input.value.trim();
      if (!text || !this.canChat()) return;
      send({ type: "chat", text });
      this.input.value = "";
    });
    this.scores = h("div", { class: "scores", "data-testid": "scores" });
    // The room's house rules as labels that open on a tap (kept across redraws, so an open one stays open).
    this.options = h("div", { class: "muted side-options", "data-testid": "side-options" });
    this.close = h("button", { class: "btn btn-small drawer-close", type: "button", "data-testid": "drawer-close", text: t("dialog.close"), onclick: closeDrawer });
    // The table's own tools (the Alerts menu, the host's big-screen link) share one row: a second
    // row would push the chat below a laptop's fold.
    this.tools = h("div", { class: "side-tools" });
    this.el = h("aside", { class: "side", id: "side-panel", "aria-label": t("side.label") },
      this.close,
      this.tools,
      h("section", { class: "side-block scores-block" }, h("h2", { text: t("side.scores") }), this.scores),
      h("section", { class: "side-block log-block", "data-testid": "event-log" }, h("h2", { text: t("side.log") }), this.log),
      h("section", { class: "side-block chat-block", "data-testid": "chat" }, h("h2", { text: t("side.chat") }), this.chatList, form));
    this.badge = new ChatBadge(this.el.querySelector(".chat-block"), this.input);
    this.logSig = "";
    this.chatSeen = 0;
  }

  /** After each view; `g` is the game part of it (null before the first deal). */
  render(view, g, you, nameOf) {
    const room = view.room;
    if (changed(this.scores, [view.players, g && g.scores, g && g.target, g && g.table.current, room.house_rules, room.turn_seconds, g && g.team_scores, g && g.eliminated])) {
      clear(this.scores);
      if (g) this.scores.append(h("p", { class: "muted", text: t("side.target", { n: g.target }) }));
      // The room's options: in the table's head, or here where a phone's head has no room for them.
      if (g && hasOptions(room)) {
        this.scores.append(this.options);
        showRoomOptions(this.options, room);
      }
      const teams = teamScores(view, nameOf);
      if (teams) this.scores.append(teams);
      const out = new Set((g && g.eliminated) || []); // HR-30: who is out, marked
      const list = h("ol", { class: `score-list${teams ? " seat-scores" : ""}` });
      for (const p of view.players) {
        list.append(h("li", { class: `${p.seat === you ? "is-me" : ""}${out.has(p.seat) ? " is-out" : ""}`, "data-seat": p.seat },
          h("span", { class: "score-name", text: p.name }, out.has(p.seat) ? h("span", { class: "badge badge-out", text: t("out.badge") }) : null),
          // HX-14: under team play each seat is credited with its team's total (credit.js).
          h("span", { class: "score-value", text: g ? String(creditedTotal(g.teams, g.scores, p.seat)) : "—" })));
      }
      this.scores.append(list);
    }
    this.renderLog(view, nameOf);
    this.renderChat(view, you);
  }

  renderLog(view, nameOf) {
    const lines = logLines(view, nameOf);
    const sig = lines.map((l) => `${l.n}:${l.text}`).join("\n");
    if (sig === this.logSig) return;
    this.logSig = sig;
    const atEnd = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 40;
    clear(this.log);
    for (const l of lines) {
      const body = l.href ? h("a", { class: "fair-badge", href: l.href, title: l.title, text: l.text })
        : l.title ? h("span", { class: "fair-badge", title: l.title, text: l.text }) : l.text;
      this.log.append(h("li", { class: `log-entry log-${l.kind}`, "data-kind": l.kind }, body));
    }
    if (atEnd) this.log.scrollTop = this.log.scrollHeight;
  }

  renderChat(view, you) {
    // Chat lines are never changed once said: append what is new.
    const atEnd = this.chatList.scrollHeight - this.chatList.scrollTop - this.chatList.clientHeight < 40;
    let added = false;
    for (const c of view.chat) {
      if (c.n <= this.chatSeen) continue;
      this.chatSeen = c.n;
      this.chatList.append(h("li", { class: `chat-line${c.spectator ? " chat-spectator" : ""}` }, h("strong", { text: `${chatAuthor(c)}: ` }), h("span", { text: c.text })));
      added = true;
    }
    if (added && atEnd) this.chatList.scrollTop = this.chatList.scrollHeight;
    this.input.disabled = !this.canChat();
    this.badge.update(view.chat, you);
  }
}
