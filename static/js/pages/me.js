// This browser's player (docs/STATS.md): become one, rename, a one-time code (and its QR) for
// another device, use a code from one, delete.  The secret itself is an HttpOnly cookie: no
// script here ever sees it.  A code arrives in the link's fragment (#code=…), never sent to a server.
import { loadCatalogue, t } from "../i18n.js";
import { api, clear, h, initLanguagePicker, rememberName, toast } from "../dom.js";
import { avatar } from "../avatar.js";
import { fitText, limitInput, NAME_MAX } from "../text.js";
import { EDITIONS, playerTag } from "../players_view.js";
import { standingList } from "../standing.js";

const root = document.getElementById("me-root");

function field(label, input) {
  return h("label", { class: "field" }, h("span", { text: label }), input);
}

function form(testid, label, input, button, onsubmit) {
  const error = h("p", { class: "form-error", role: "alert", "data-testid": `${testid}-error` });
  const el = h("form", { class: "players-form", "data-testid": testid, novalidate: true }, field(label, input),
    h("button", { class: "btn btn-primary", type: "submit", "data-testid": `${testid}-submit`, text: button }), error);
  el.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try { await onsubmit(); } catch (err) { error.textContent = err.message; }
  });
  return el;
}

function claimForm(code) {
  const input = h("input", { name: "code", autocomplete: "one-time-code", maxlength: "20", "data-testid": "claim-code", value: code || "" });
  const el = form("claim", t("players.me.code"), input, t("players.me.use_code"), async () => {
    await api("POST", "/api/me/claim", { code: input.value.trim() });
    await show();
  });
  return h("section", { class: "players-part" }, h("h2", { text: t("players.me.claim") }), el);
}

function noPlayer(code) {
  const name = limitInput(h("input", { name: "name", autocomplete: "nickname", "data-testid": "become-name" }), NAME_MAX);
  return [
    h("p", { "data-testid": "me-none", text: t("players.me.none") }),
    form("become", t("players.me.name"), name, t("players.me.become"), async () => {
      await api("POST", "/api/me", { name: name.value.trim() });
      rememberName(name.value.trim());
      await show();
    }),
    claimForm(code),
  ];
}

function moveSection() {
  const out = h("div", { class: "code-box", "aria-live": "polite" });
  const make = h("button", { class: "btn", type: "button", "data-testid": "make-code", text: t("players.me.make_code") });
  make.addEventListener("click", async () => {
    try {
      const made = await api("POST", "/api/me/codes");
      clear(out).append(
        h("p", { class: "code", "data-testid": "move-code", text: made.code }),
        h("p", { class: "muted", text: t("players.me.code_valid", { n: Math.round(made.seconds / 60) }) }),
        made.qr ? h("img", { class: "code-qr", src: made.qr, alt: t("players.me.qr"), "data-testid": "move-qr", width: "180", height: "180" }) : null);
    } catch (err) { toast(err.message, "error"); }
  });
  return h("section", { class: "players-part" }, h("h2", { text: t("players.me.move") }),
    h("p", { class: "muted", text: t("players.me.move_help") }), make, out);
}

function deleteSection() {
  const sure = h("button", { class: "btn btn-danger", type: "button", hidden: true, "data-testid": "delete-confirm", text: t("players.me.delete_confirm") });
  const ask = h("button", { class: "btn", type: "button", "data-testid": "delete-me", text: t("players.me.delete") });
  ask.addEventListener("click", () => { sure.hidden = false; sure.focus(); });
  sure.addEventListener("click", async () => {
    try {
      await api("DELETE", "/api/me");
      toast(t("players.me.deleted"));
      await show();
    } catch (err) { toast(err.message, "error"); }
  });
  return h("section", { class: "players-part" }, h("h2", { text: t("players.me.delete") }),
    h("p", { class: "muted", text: t("players.me.delete_help") }), ask, sure);
}

function player(me, code) {
  const name = limitInput(h("input", { name: "name", autocomplete: "nickname", "data-testid": "rename-name", value: fitText(me.name, NAME_MAX) }), NAME_MAX);
  const saved = h("p", { class: "muted", role: "status", "data-testid": "rename-saved" });
  const rename = form("rename", t("players.me.name"), name, t("players.me.rename"), async () => {
    const after = await api("PATCH", "/api/me", { name: name.value.trim() });
    rememberName(after.name);
    saved.textContent = t("players.me.renamed");
    head.replaceChildren(avatar(after.name, { key: after.id }), h("span", { "data-testid": "me-name", text: after.name }),
      playerTag(after.tag));
  });
  const head = h("p", { class: "me-head" }, avatar(me.name, { key: me.id }), h("span", { "data-testid": "me-name", text: me.name }),
    playerTag(me.tag));
  return [head,
    h("a", { class: "btn btn-primary", href: `/players/${encodeURIComponent(me.id)}`, "data-testid": "me-page", text: t("players.me.page") }),
    standingSection(me), rename, saved, moveSection(), claimForm(code), deleteSection()];
}

/** Where you stand on each edition's leaderboard, or what is left before you are on it (standing.js). */
function standingSection(me) {
  const part = h("section", { class: "players-part", "data-testid": "me-standing" }, h("h2", { text: t("players.standing.title") }));
  api("GET", `/api/players/${encodeURIComponent(me.id)}/standing`)
    .then((standing) => part.append(standingList(standing, EDITIONS)))
    .catch(() => { part.hidden = true; });
  return part;
}

async function show() {
  // A code from another device's QR: read once from the fragment, then out of the address bar.
  const code = new URLSearchParams(location.hash.slice(1)).get("code");
  if (code) history.replaceState(null, "", location.pathname + location.search);
  let me = null;
  try { me = await api("GET", "/api/me"); } catch (err) { if (err.status !== 404) toast(err.message, "error"); }
  clear(root).append(h("h1", { text: t("players.me.title") }), ...(me ? player(me, code) : noPlayer(code)));
  root.setAttribute("aria-busy", "false");
  if (code) root.querySelector("[data-testid=claim-code]").focus();
}

loadCatalogue().then(() => { initLanguagePicker(); show(); });
