// The room page's controller: it owns the page's local state (`ui`: the card being chosen, UNO!
// said in advance, a revealed hand closed, the turn actions in flight), turns clicks and keys
// into commands, and on every view derives the table model (model.js) and hands each region
// its part.  The regions keep no state of the game and send nothing; the controller draws only
// the page's frame (the mode's layout) and leaves the rest to them.
import { t } from "../i18n.js";
import { api, clear, h, toast } from "../dom.js";
import { SidePanel } from "../side_panel.js";
import { showWaiting, waitingRoom } from "../waiting_view.js";
import { showSeats } from "../seats_view.js";
import { showSummary } from "../summary_view.js";
import { AbsenceNotice } from "../absence.js";
import { Reactions } from "../reactions.js";
import { TableMotion } from "../motion.js";
import { Cues } from "../cues.js";
import { PhoneAids } from "../phone/phone.js";
import { RulesSheet } from "./rules_sheet.js";
import { maybeUnoTip } from "../uno_tip.js";
import { canChat, updateSpectating } from "../spectate.js";
import { derive, modeOf, namer } from "./model.js";
import { legalOf, unoMode } from "./decision.js";
import { batchOption, choose, tapCard } from "./card_play.js";
import { buildTable, showTableState, toggleKeys } from "./table_view.js";
import { showHead } from "./head_view.js";
import { showMatchClock } from "./match_clock.js";
import { showPiles } from "./piles_view.js";
import { handKeys, showHand } from "./hand_view.js";
import { showActions, showClock, showMe, showStatus, showWatcher, unoHint } from "./action_bar.js";
import { EntryNews, showDialog, showRevealed } from "./announce_view.js";
import { keepFocus, placeToasts } from "./focus.js";
import { ControllerLayout } from "./controller_layout.js";
import { ScreenLink } from "../screen_link.js";
import { awaySpot } from "./sheet.js";

// As app.css: the side panel is a drawer on phones and small windows (not on an upright tablet).
const narrow = window.matchMedia("(max-width: 699px), (max-width: 979px) and (max-height: 899px)");

export class RoomController {
  /** `root` is the page's element; `sync()` the RoomSync of the moment; `renderJoin(summary)` offers a seat. */
  constructor({ code, root, sync, seat, renderJoin }) {
    Object.assign(this, { code, root, sync, seat, renderJoin });
    this.view = null;
    this.ui = {
      mode: null, // "waiting" | "game": the DOM built for it
      els: {}, // the elements of the current mode
      layout: null,
      choosing: null, // a card whose play needs a colour, a target or UNO!: { card, variants, unoChoice? }
      batch: null, // a batch of one number being built (HR-8): { card, picked: [ids] } (card_play.js)
      armed: false, // UNO! said in advance for the next play that leaves one card
      dismissedReveal: "", // the revealed hand closed, by its key
      inflight: 0, // turn actions sent and not yet answered
    };
    this.seats = { counts: null, countsRound: null }; // hand sizes last shown (seats_view.js)
    this.summary = { shown: "", countdown: null, rematchTimer: { id: null } }; // summary_view.js
    this.cues = new Cues(); // sound, off unless turned on
    this.phone = new PhoneAids(); // screen kept on, buzz, notifications (phone/phone.js)
    this.absence = new AbsenceNotice(); // what happened while you were away
    this.reactions = new Reactions((message) => this.send(message));
    this.rules = new RulesSheet(); // the edition's and the room's house rules, in a sheet at the table
    this.motion = new TableMotion(); // card backs flying from the draw pile to whoever draws
    this.news = new EntryNews();
    this.screenLink = new ScreenLink({ code, seat }); // the host's "Show on a big screen"
    this.layout = new ControllerLayout(() => { if (this.ui.mode === "game") window.scrollTo(0, 0); }); // a phone as controller
    this.nameOf = (seat) => namer(this.view)(seat);
    this.side = new SidePanel({ send: (m) => this.send(m), canChat: () => canChat(this.view), closeDrawer: () => this.setDrawer(false) });
    // At the table on a narrow screen the chat is in the drawer: the badge opens it.
    this.side.badge.el.addEventListener("click", () => {
      if (this.ui.mode !== "game" || !narrow.matches) return;
      this.setDrawer(true);
      this.side.input.focus({ preventScroll: true });
    });
    setInterval(() => this.tick(), 250);
  }

  // ---------------------------------------------------------------- commands

  send(message) {
    const sync = this.sync();
    if (!sync) return Promise.resolve(null);
    const p = sync.send(message);
    this.updateBusy();
    return p;
  }

  act(action) {
    // One turn action at a time: a double tap must not send a second, doomed play.
    const ui = this.ui;
    const racing = action.kind === "declare_uno" || action.kind === "catch";
    if (!racing && ui.inflight > 0) return Promise.resolve(null);
    if (!racing) { ui.choosing = null; ui.batch = null; }
    ui.armed = false;
    if (!racing) ui.inflight += 1;
    const p = this.send({ type: "action", action });
    p.then(() => { if (!racing) ui.inflight -= 1; });
    this.render();
    return p;
  }

  playing() {
    return this.view && this.view.room.status === "playing";
  }

  onCard(id) {
    if (this.playing()) tapCard(this, id);
  }

  setChoosing(choosing) {
    this.ui.choosing = choosing;
    this.render();
  }

  /** A decision's option: its action, or the next step of a card's play (or of a batch). */
  runOption(option) {
    if (option.tap !== undefined) { this.onCard(option.tap); return; } // a card of the hand, from the box
    if (batchOption(this, option)) return;
    if (option.choose) choose(this, option.choose.card, option.choose.variants);
    else this.act(option.action);
  }

  /** Backs out of a choice begun from the hand, or of a batch being built. */
  cancel() {
    this.ui.batch = null;
    this.setChoosing(null);
  }

  draw() {
    const a = legalOf(this.view).find((x) => x.kind === "draw");
    if (a) this.act(a);
    else toast(t("hint.cannot_draw"), "info", 2500);
  }

  special() {
    const a = legalOf(this.view).find((x) => x.kind === "special_draw");
    if (a) this.act(a);
  }

  uno() {
    if (!this.playing() || this.view.you === null) return;
    const u = unoMode(legalOf(this.view));
    if (u.mode === "declare" || u.mode === "catch") this.act(u.action);
    else if (u.mode === "arm" && this.view.game.table.predeclared === this.view.you) toast(t("err.already_declared"), "info", 3500);
    else if (u.mode === "arm") { this.ui.armed = !this.ui.armed; this.render(); }
    else toast(t(unoHint(this.view)), "info", 3500);
  }

  async addBot(level) {
    const seat = this.seat();
    if (!seat) return;
    try {
      await api("POST", `/api/rooms/${encodeURIComponent(this.code)}/bots`, { level }, { Authorization: `Bearer ${seat.token}` });
    } catch (err) {
      toast(err.message);
    }
  }

  /** On a narrow screen at the table the side panel (scores, log, chat) is a drawer (app.css). */
  setDrawer(open) {
    const { layout, els } = this.ui;
    if (!layout) return;
    const was = layout.classList.contains("drawer-open");
    layout.classList.toggle("drawer-open", open);
    if (els.sideToggle) els.sideToggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (open && !was) this.side.close.focus({ preventScroll: true });
    else if (!open && was && this.side.el.contains(document.activeElement) && els.sideToggle) els.sideToggle.focus({ preventScroll: true });
  }

  drawerOpen() {
    return !!this.ui.layout && this.ui.layout.classList.contains("drawer-open");
  }

  /** The keyboard shortcuts at the table (U, D, ?, Esc); says whether the key was one of U, D, ?. */
  key(ev) {
    const els = this.ui.els;
    if (this.ui.mode !== "game") return false;
    if (ev.key === "u" || ev.key === "U") this.uno();
    else if (ev.key === "d" || ev.key === "D") this.draw();
    else if (ev.key === "?") toggleKeys(els);
    // Esc closes the shortcuts first, when shown (opened to be read, maybe in the middle of a choice), then a choice.
    else if (ev.key === "Escape" && els.keys && !els.keys.hidden) toggleKeys(els, false);
    else if (ev.key === "Escape" && (this.ui.choosing || this.ui.batch)) this.cancel();
    else return false;
    return ev.key !== "Escape";
  }

  updateBusy() {
    const tableEl = this.ui.els.table;
    const sync = this.sync();
    if (tableEl) tableEl.dataset.busy = sync && sync.pending > 0 ? "true" : "false";
  }

  tick() {
    if (this.ui.mode !== "game" || !this.view || !this.view.game) return;
    showClock(this.ui.els, this.view.room, this.view.game.table.pending);
    showMatchClock(this.ui.els.matchClock, this.view.room); // HR-25, through the breaks too
  }

  // ---------------------------------------------------------------- rendering

  local() {
    const ui = this.ui;
    return { choosing: ui.choosing, batch: ui.batch, armed: ui.armed, dismissedReveal: ui.dismissedReveal, code: this.code };
  }

  reset() {
    this.ui.mode = null;
    this.phone.leave();
  }

  /** Builds the page for `mode` (waiting room or table), keeping the side panel across modes. */
  enter(mode) {
    const ui = this.ui;
    ui.mode = mode;
    let main;
    if (mode === "waiting") {
      const waiting = waitingRoom(this.code, (m) => this.send(m));
      ui.els = waiting.els;
      main = waiting.el;
    } else {
      ui.els = buildTable({ draw: () => this.draw(), uno: () => this.uno(), special: () => this.special(), drawer: () => this.setDrawer(!this.drawerOpen()), handKeys });
      main = ui.els.table;
    }
    ui.layout = h("div", { class: `room-layout mode-${mode}` }, main, this.side.el);
    clear(this.root).append(ui.layout);
    // At the table the page is one screen high (app.css): the action bar and the hand never
    // fall below the fold, and the messages of the moment (toasts) join the table's one
    // announcement area instead of covering the action bar.
    document.body.dataset.roomMode = mode;
    if (mode === "game") placeToasts(ui.els.announce, ui.els.dialog);
    else placeToasts(document.body);
    // The chat's unread badge, the sound toggle and the reactions: in the table's head at the
    // table; the badge on the page and the sound toggle at the waiting room's foot otherwise.
    const badge = this.side.badge.el;
    if (mode === "game") ui.els.head.append(badge, this.cues.toggle(), this.reactions.toggle());
    // The phone's Alerts at the top of the side panel (the drawer, on a phone): the head has no room to spare.
    if (mode === "game") this.side.tools.append(this.phone.menu());
    if (mode === "game") ui.els.keysToggle.before(this.rules.toggle());
    if (mode === "game") { this.layout.place(ui.els); this.side.tools.append(this.screenLink.el); }
    else main.querySelector(".share").append(this.screenLink.el);
    if (mode !== "game") {
      if (badge.parentElement !== document.body) document.body.append(badge);
      ui.els.mine.parentElement.append(this.cues.toggle(), this.phone.menu());
    }
    this.setDrawer(false);
    if (mode === "game") window.scrollTo(0, 0); // the table starts at the top, whatever was scrolled before
  }

  render(view = this.view) {
    this.view = view;
    if (!view) return;
    this.root.setAttribute("aria-busy", "false");
    const mode = modeOf(view);
    if (mode !== this.ui.mode) this.enter(mode);
    let model = derive(view, this.local());
    if (model.staleChoice || model.staleBatch) {
      if (model.staleChoice) this.ui.choosing = null;
      if (model.staleBatch) this.ui.batch = null;
      model = derive(view, this.local());
    }
    document.title = model.title;
    this.cues.notice(view, model.myTurn);
    this.phone.notice(view, mode, model.title, this.nameOf);
    if (mode === "waiting") {
      keepFocus(this.root, () => showWaiting(this.ui.els, view, view.you, { send: (m) => this.send(m), nameOf: this.nameOf, addBot: (level) => this.addBot(level), renderJoin: this.renderJoin }));
    } else {
      this.renderTable(model);
    }
    this.side.render(view, view.game, view.you, this.nameOf);
    updateSpectating(view, this.root, this.side.el, (m) => this.send(m));
    this.news.notice(view, this.ui.els, this.nameOf);
    this.absence.update(view, view.you, this.nameOf, mode === "game" ? awaySpot(this.ui.els) : null);
    if (mode === "game") this.reactions.update(view, view.you, this.nameOf);
    this.rules.update(view.room);
    this.screenLink.update(view);
    this.layout.update(view, mode);
    this.motion.update(view); // in every mode, so that the first deal is news when the table appears
  }

  renderTable(model) {
    const els = this.ui.els;
    const view = this.view;
    showTableState(els, model.table);
    this.updateBusy();
    showHead(els.headInfo, model.head);
    showSeats(els.opponents, model.seats, this.seats);
    this.tick();
    showPiles(els, model.piles); // before the hand, which lets a played card go
    showStatus(els, model.status, model.ticker);
    showMe(els.meBar, model.me);
    showWatcher(els, model.watcher);
    showHand(els.hand, model.hand, { empty: model.empty, onCard: (id) => this.onCard(id), dialog: els.dialog });
    showActions(els, model.actions);
    // In the line under the piles, above the last event: never over the pile, the colour or the hand.
    maybeUnoTip(els.info, model.myTurn && model.actions.unoTip, els.ticker);
    showDialog(els, model.decision, { run: (o) => this.runOption(o), cancel: () => this.cancel() });
    showRevealed(els.revealed, model.revealed, (key) => { this.ui.dismissedReveal = key; });
    showSummary(els.summary, view, { you: view.you, send: (m) => this.send(m), nameOf: this.nameOf, state: this.summary });
  }
}
