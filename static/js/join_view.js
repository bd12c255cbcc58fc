// Taking a seat in a room you were invited to: your name, then Take a seat (or Watch).
import { t } from "./i18n.js";
import { api, h, rememberName, saveSeat, storedName } from "./dom.js";
import { fitText, limitInput, NAME_MAX } from "./text.js";
import { watchOffer } from "./spectate.js";

/**
 * The join form for room `code` (its `summary` from the API); `seated(seatInfo)` connects with
 * the seat taken, `watch(summary)` watches instead.  Returns the form and its name field.
 */
export function joinForm(code, summary, { seated, watch, replace }) {
  const error = h("p", { class: "form-error", role: "alert", "data-testid": "join-seat-error" });
  const input = limitInput(h("input", { name: "name", required: true, autocomplete: "nickname", "data-testid": "join-name", value: fitText(storedName(), NAME_MAX) }), NAME_MAX);
  const form = h("form", { class: "panel join-seat", "data-testid": "join-seat-form", novalidate: true },
    h("h1", { text: summary.name }),
    h("p", { class: "edition-line" }, t(`edition.${summary.variant}`), " · ", t("room.players_count", { n: summary.seats_taken, max: summary.max_seats })),
    summary.players.length ? h("p", { class: "muted", text: t("room.already_here", { names: summary.players.join(", ") }) }) : null,
    h("label", { class: "field" }, h("span", { text: t("home.your_name") }), input),
    error,
    h("div", { class: "button-row" },
      h("button", { class: "btn btn-primary", type: "submit", "data-testid": "join-seat-button", text: t("room.take_seat") }),
      h("button", { class: "btn", type: "button", "data-testid": "watch-button", text: t("room.watch"), onclick: () => watch(summary) })));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) { error.textContent = t("home.name_required"); input.focus(); return; }
    try {
      const seat = await api("POST", `/api/rooms/${encodeURIComponent(code)}/players`, { name });
      const info = { token: seat.token, seat: seat.seat, name: seat.name };
      saveSeat(code, info);
      rememberName(name);
      seated(info);
    } catch (err) {
      if (err.code === "room_full" || err.code === "room_started") {
        // Taken meanwhile: say so and offer to watch, rather than seat nobody silently.
        const now = await api("GET", `/api/rooms/${encodeURIComponent(code)}`).catch(() => summary);
        replace(watchOffer(now, () => watch(now)));
        return;
      }
      error.textContent = err.message;
    }
  });
  return { form, input };
}
