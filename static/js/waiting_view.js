// The waiting room: the invite (link, copy, share sheet, QR code), the seats as they fill, the
// host's start and bots, renaming and leaving, and a seat to take for someone only watching.
import { t } from "./i18n.js";
import { append, clear, h, rememberName } from "./dom.js";
import { showRoomOptions } from "./house_rules_badges.js";
import { limitInput, NAME_MAX } from "./text.js";
import { botBadgeText, levelPicker } from "./bot_level.js";

/** The waiting room's parts, built once: `{ el, els }` (`els` are the parts `showWaiting` fills). */
export function waitingRoom(code, send) {
  // The server's start of invite links (data-public-url: UNO_PUBLIC_URL or an allowed Host), else this page's.
  const shareUrl = `${document.body.dataset.publicUrl || location.origin}/r/${code}`;
  const share = h("input", { class: "share-input", readonly: true, value: shareUrl, "data-testid": "share-link", "aria-label": t("room.share") });
  const copy = h("button", { class: "btn", type: "button", "data-testid": "copy-link", text: t("room.copy") });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(shareUrl);
    } catch {
      share.select();
      document.execCommand("copy");
    }
    copy.textContent = t("room.copied");
    setTimeout(() => { copy.textContent = t("room.copy"); }, 2000);
  });
  // The phone's own share sheet (messages, chat apps), where the browser has one.
  const native = typeof navigator.share === "function"
    ? h("button", { class: "btn", type: "button", "data-testid": "share-native", text: t("room.share_native"),
      onclick: () => navigator.share({ title: document.title, url: shareUrl }).catch(() => {}) })
    : null;
  const renameInput = limitInput(h("input", { name: "rename", autocomplete: "nickname", "data-testid": "rename-input", "aria-label": t("room.rename") }), NAME_MAX);
  const renameForm = h("form", { class: "inline-form" }, renameInput,
    h("button", { class: "btn btn-small", type: "submit", text: t("room.rename") }));
  renameForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = renameInput.value.trim();
    if (name) { send({ type: "rename", name }); rememberName(name); renameInput.value = ""; }
  });
  const els = {
    title: h("h1", {}),
    info: h("p", { class: "edition-line" }),
    summary: h("p", { class: "muted" }),
    options: h("div", { class: "room-options", "data-testid": "room-options" }),
    seats: h("ol", { class: "seat-list", "data-testid": "seat-list" }),
    controls: h("div", { class: "host-controls" }),
    mine: h("div", { class: "my-controls" }, renameForm,
      h("button", { class: "btn btn-ghost", type: "button", "data-testid": "leave-button", text: t("room.leave"), onclick: () => send({ type: "leave" }) })),
    join: h("div", {}),
  };
  const el = h("section", { class: "panel waiting", "data-testid": "waiting-room" },
    els.title, els.info, els.summary, els.options,
    h("div", { class: "share" }, h("label", { class: "field" }, h("span", { text: t("room.share") }), h("div", { class: "share-row" }, share, copy, native)),
      // Folded, so the seats and the start button stay near the top on a phone.
      h("details", { class: "share-qr-box" }, h("summary", { "data-testid": "share-qr-toggle", text: t("room.qr_show") }),
        h("img", { class: "share-qr", src: `/rooms/${encodeURIComponent(code)}/qr.svg`, alt: t("room.qr_alt"), width: 148, height: 148, "data-testid": "share-qr" })),
      h("p", { class: "muted" }, t("room.code_is"), " ", h("strong", { class: "room-code", "data-testid": "room-code", text: code }))),
    h("h2", { text: t("room.seats") }), els.seats, els.controls, els.mine, els.join);
  return { el, els };
}

/** Fills the waiting room from the view: the room, its seats, the host's controls, a seat to take. */
export function showWaiting(els, view, you, { send, nameOf, addBot, renderJoin }) {
  const room = view.room;
  els.title.textContent = room.name;
  const target = room.target ?? (room.edition === "pocket_pizza" ? 250 : 500);
  els.info.textContent = `${t(`edition.${room.edition}`)} · ${room.public ? t("home.public") : t("home.private")} · ${t("side.target", { n: target })}`;
  clear(els.summary).append(t(`edition.${room.edition}.summary`), " ",
    h("a", { href: `/rules/${room.edition}?room=${encodeURIComponent(room.code)}`, target: "_blank", rel: "noopener", "data-testid": "waiting-rules-link", text: t("room.rules_link", { edition: t(`edition.${room.edition}`) }) }));
  showRoomOptions(els.options, room); // house rules as labels (details on a tap) and the turn timer
  clear(els.seats);
  const host = room.host;
  const amHost = you !== null && you === host;
  for (let i = 0; i < room.max_seats; i += 1) {
    const p = view.players.find((x) => x.seat === i);
    if (!p) {
      els.seats.append(h("li", { class: "seat empty", "data-testid": "seat" }, h("span", { text: t("room.empty_seat") })));
      continue;
    }
    els.seats.append(h("li", { class: `seat${p.seat === you ? " is-me" : ""}`, "data-testid": "seat", "data-seat": p.seat },
      h("span", { class: `dot ${p.connected || p.bot ? "on" : "off"}`, title: p.bot ? t("room.bot") : p.connected ? t("room.connected") : t("room.away") }),
      h("span", { class: "seat-name", text: p.name }),
      p.host ? h("span", { class: "badge", text: t("room.host") }) : null,
      p.bot ? h("span", { class: "badge badge-bot", "data-testid": "bot-badge", "data-level": p.level, text: botBadgeText(p.level) }) : null,
      p.seat === you ? h("span", { class: "badge badge-me", text: t("room.you") }) : null,
      p.bot ? null : h("span", { class: "visually-hidden", text: p.connected ? t("room.connected") : t("room.away") }),
      amHost && p.seat !== you ? h("button", { class: "btn btn-small btn-ghost", type: "button", "data-testid": "kick-button", "data-seat": p.seat, text: t("room.kick"), "aria-label": t("room.kick_name", { name: p.name }), onclick: () => send({ type: "kick", seat: p.seat }) }) : null));
  }
  clear(els.controls);
  if (amHost) {
    const enough = view.players.length >= 2;
    const picker = view.players.length < room.max_seats ? levelPicker() : null; // the level of the next bot
    append(els.controls, [h("button", { class: "btn btn-primary btn-big", type: "button", "data-testid": "start-button", disabled: !enough, text: t("room.start"), onclick: () => send({ type: "start" }) }),
      picker ? h("span", { class: "add-bot-group" }, picker.el,
        h("button", { class: "btn", type: "button", "data-testid": "add-bot", text: t("room.add_bot"), onclick: () => addBot(picker.level()) })) : null,
      enough ? null : h("p", { class: "muted", text: t("room.need_two") })]);
  } else if (host !== null && host !== undefined) {
    els.controls.append(h("p", { class: "muted", "data-testid": "waiting-for-host", text: t("room.waiting_host", { name: nameOf(host) }) }));
  }
  els.mine.hidden = you === null;
  clear(els.join);
  if (you === null && view.players.length < room.max_seats) {
    els.join.append(h("button", { class: "btn btn-primary", type: "button", "data-testid": "spectator-join", text: t("room.take_seat"), onclick: () => renderJoin({ name: room.name, variant: room.edition, seats_taken: view.players.length, max_seats: room.max_seats, players: view.players.map((p) => p.name) }) }));
  }
}
