// Home: create a room (edition, name, visibility, seats, target, house rules, turn timer) or join one by its code.
import { loadCatalogue, t } from "../i18n.js";
import { api, initLanguagePicker, rememberName, saveSeat, storedName } from "../dom.js";
import { fitText, limitInput, NAME_MAX } from "../text.js";
import { houseRulesForm } from "../house_rules_form.js";
import { showPlayerLine } from "../player_line.js";

const LIMITS = { classic: [2, 10, 500], mario_kart: [2, 10, 500], all_wild: [2, 10, 500], pocket_pizza: [2, 5, 250] };

function setup() {
  const form = document.getElementById("create-form");
  const join = document.getElementById("join-form");
  const seats = form.elements.seats;
  const target = form.elements.target;
  const name = limitInput(form.elements.player, NAME_MAX);
  if (!name.value) name.value = fitText(storedName(), NAME_MAX); // not over what was typed while the page loaded
  showPlayerLine(document.getElementById("main"), form.elements.player); // remembered players (player_line.js)
  limitInput(form.elements.room, 40);

  const syncEdition = () => {
    const [min, max, points] = LIMITS[form.elements.variant.value] || LIMITS.classic;
    for (const opt of seats.options) opt.disabled = Number(opt.value) < min || Number(opt.value) > max;
    if (Number(seats.value) > max) seats.value = String(max);
    target.placeholder = String(points);
  };
  const rules = houseRulesForm(form.querySelector("[data-testid=create-house-rules]"), {
    edition: () => form.elements.variant.value,
    turnSeconds: () => Number(form.elements.turn.value) || null,
  });
  for (const radio of form.querySelectorAll('input[name="variant"]')) radio.addEventListener("change", () => { syncEdition(); rules.sync(); });
  form.elements.turn.addEventListener("change", rules.sync);
  syncEdition();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const error = form.querySelector("[data-testid=create-error]");
    error.textContent = "";
    const player = form.elements.player.value.trim();
    if (!player) { error.textContent = t("home.name_required"); form.elements.player.focus(); return; }
    const body = {
      variant: form.elements.variant.value,
      public: form.elements.public.value === "1",
      max_seats: Number(seats.value),
      target_score: target.value ? Number(target.value) : null,
    };
    const house = rules.houseRules();
    if (house) body.house_rules = house;
    if (form.elements.turn.value) body.turn_seconds = Number(form.elements.turn.value);
    const roomName = form.elements.room.value.trim();
    body.name = roomName || fitText(t("home.room_of", { name: player }), 40);
    const button = form.querySelector("[type=submit]");
    button.disabled = true;
    try {
      const room = await api("POST", "/api/rooms", body);
      const seat = await api("POST", `/api/rooms/${room.code}/players`, { name: player });
      saveSeat(room.code, { token: seat.token, seat: seat.seat, name: seat.name });
      rememberName(player);
      window.location.href = `/r/${room.code}`;
    } catch (err) {
      error.textContent = err.message;
      button.disabled = false;
    }
  });

  join.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const error = join.querySelector("[data-testid=join-error]");
    const raw = join.elements.code.value.trim();
    const code = (raw.match(/\/r\/([A-Za-z0-9]+)/) || [null, raw])[1].toUpperCase();
    if (!/^[A-Z0-9]{1,16}$/.test(code)) { error.textContent = t("home.code_required"); return; }
    try {
      await api("GET", `/api/rooms/${code}`);
      window.location.href = `/r/${code}`;
    } catch (err) {
      error.textContent = err.status === 404 ? t("room.not_found", { code }) : err.message;
    }
  });
  // The page sends both forms disabled: only now would they do what they say.
  for (const button of document.querySelectorAll("#create-form [type=submit], #join-form [type=submit]")) button.disabled = false;
}

loadCatalogue().then(() => { initLanguagePicker(); setup(); });
