// The big screen before the deal: the room's name, the edition, the house rules on, the players
// as they join, and a large QR code and the code to join by (the room's invite link).
import { t } from "../i18n.js";
import { clear, h } from "../dom.js";
import { avatar } from "../avatar.js";
import { botBadgeText } from "../bot_level.js";
import { loadHouseSchema, ruleLabel, rulesOn } from "../house_schema.js";
import { changed } from "../table/changed.js";

export function buildLobby(code, publicUrl) {
  const link = publicUrl ? `${publicUrl}/r/${code}` : `${location.origin}/r/${code}`;
  const els = {
    title: h("h1", { class: "sl-title", "data-testid": "screen-room-name" }),
    edition: h("p", { class: "sl-edition", "data-testid": "screen-edition" }),
    rules: h("ul", { class: "sl-rules", "data-testid": "screen-house-rules" }),
    players: h("ol", { class: "sl-players", "data-testid": "screen-players" }),
    status: h("p", { class: "sl-status", "data-testid": "screen-waiting", "aria-live": "polite" }),
  };
  els.root = h("section", { class: "sc-lobby", "data-testid": "screen-lobby" },
    h("div", { class: "sl-main" }, els.title, els.edition, els.rules,
      h("h2", { class: "sl-heading", text: t("screen.players") }), els.players, els.status),
    h("aside", { class: "sl-join", "data-testid": "screen-join" },
      h("h2", { class: "sl-heading", text: t("screen.scan_to_join") }),
      h("img", { class: "sl-qr", "data-testid": "screen-qr", src: `/rooms/${encodeURIComponent(code)}/qr.svg`, alt: t("room.qr_alt"), width: 320, height: 320 }),
      h("p", { class: "sl-link", text: link }),
      h("p", { class: "sl-code-label", text: t("screen.code") }),
      h("p", { class: "sl-code", "data-testid": "screen-code", text: code })));
  return els;
}

function showRules(el, room) {
  const key = JSON.stringify([room.house_rules, room.turn_seconds, room.edition]);
  if (!changed(el, key)) return;
  loadHouseSchema().then((schema) => {
    const on = rulesOn(schema, room.house_rules).map(({ option, value }) => ruleLabel(option, value));
    if (room.turn_seconds) on.push(t("room.turn_timer", { n: room.turn_seconds }));
    clear(el).append(...(on.length ? on : [t("room.no_house_rules")]).map((text) => h("li", { text })));
  }).catch(() => { clear(el).append(h("li", { text: t("room.no_house_rules") })); });
}

/** Fills the lobby from the view (waiting for the deal, or a new match's table being chosen). */
export function showLobby(els, view) {
  const room = view.room;
  els.title.textContent = room.name;
  els.edition.textContent = `${t(`edition.${room.edition}`)} · ${t(`edition.${room.edition}.short`)}`;
  showRules(els.rules, room);
  const seated = view.players.map((p) => [p.seat, p.name, p.bot, p.level, p.connected, p.seat === room.host]);
  if (changed(els.players, seated)) {
    clear(els.players);
    for (const [seat, name, bot, level, connected, host] of seated) {
      els.players.append(h("li", { class: `sl-player${connected || bot ? "" : " away"}`, "data-testid": "screen-player", "data-seat": seat },
        avatar(name, { bot }), h("span", { class: "sl-name", text: name }),
        host ? h("span", { class: "sc-flag", text: t("room.host") }) : null,
        bot ? h("span", { class: "sc-flag sc-bot", text: botBadgeText(level) }) : null));
    }
    for (let i = view.players.length; i < room.max_seats; i += 1) {
      els.players.append(h("li", { class: "sl-player empty", text: t("room.empty_seat") }));
    }
  }
  els.status.textContent = view.players.length < 2 ? t("room.need_two") : t("screen.host_starts");
}
