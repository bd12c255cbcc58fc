// The fairness check on the match page: the server's own rules engine, run in this browser
// (verify_worker.js: Python in WebAssembly), checks the match's export — or an export file
// chosen here — as `python -m app.engine.verify MATCH.json` does.
import { t } from "./i18n.js";
import { clear, h } from "./dom.js";

let worker = null;

/** Run the check on an export's JSON text; resolves to { lines, unfair } (unfair: null when fair). */
function check(text, onStage) {
  if (!worker) worker = new Worker("/static/js/verify_worker.js", { type: "module" });
  return new Promise((resolve, reject) => {
    worker.onmessage = (ev) => {
      const msg = ev.data;
      if (msg.type === "stage") onStage(msg.stage);
      else if (msg.type === "result") resolve(msg);
      else reject(new Error(msg.message));
    };
    worker.onerror = (ev) => {
      worker = null;
      reject(new Error(ev.message || "worker"));
    };
    worker.postMessage({ text });
  });
}

/** The results: "Round N: fair" per round found fair, then the reason it is not (the engine's words),
 * then whether the export is signed by this server's key. */
function showResult(out, { lines, unfair, signature }) {
  const list = h("ul", { class: "verify-rounds", "data-testid": "verify-rounds" });
  for (const line of lines) {
    const m = /^round (\d+): fair$/.exec(line);
    list.append(h("li", { class: "verify-fair", "data-testid": "verify-round", "data-round": m ? m[1] : "", title: line },
      h("span", { "aria-hidden": "true", text: "✓ " }), m ? t("verify.round_fair", { n: m[1] }) : line));
  }
  clear(out).append(list);
  if (unfair) {
    out.append(h("p", { class: "verify-unfair", role: "alert", "data-testid": "verify-unfair" },
      h("strong", { text: `${t("verify.unfair")} ` }), h("span", { lang: "en", "data-testid": "verify-reason", text: unfair })));
  } else {
    out.append(h("p", { class: "verify-ok", "data-testid": "verify-all-fair", text: t("verify.all_fair") }));
  }
  const sig = signature || { state: "unchecked" };
  out.append(h("p", { class: sig.state === "valid" ? "verify-ok" : "verify-unfair", "data-testid": "verify-signature",
    "data-state": sig.state, text: t(`verify.signature_${sig.state}`, { key: sig.keyId || "", reason: sig.reason || "" }) }));
  out.dataset.state = unfair ? "unfair" : "fair";
}

export function mountVerify(root, matchId) {
  const exportUrl = `/api/matches/${encodeURIComponent(matchId)}/export`;
  const out = h("div", { class: "verify-out", "data-testid": "verify-out", "aria-live": "polite" });
  const button = h("button", { class: "btn btn-primary", type: "button", "data-testid": "verify-button", text: t("verify.button") });
  const file = h("input", { type: "file", accept: "application/json,.json", "data-testid": "verify-file" });

  async function run(source) {
    button.disabled = file.disabled = true;
    out.dataset.state = "running";
    const status = h("p", { class: "muted", "data-testid": "verify-status", text: t("verify.loading") });
    clear(out).append(status);
    try {
      const text = await source();
      showResult(out, await check(text, (stage) => { status.textContent = t(`verify.${stage}`); }));
    } catch (err) {
      clear(out).append(h("p", { class: "form-error", role: "alert", "data-testid": "verify-error", text: t("verify.error", { message: err.message }) }));
      out.dataset.state = "error";
    } finally {
      button.disabled = file.disabled = false;
    }
  }

  button.addEventListener("click", () => run(async () => {
    const res = await fetch(exportUrl);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.text();
  }));
  file.addEventListener("change", () => {
    const chosen = file.files && file.files[0];
    if (chosen) run(() => chosen.text());
    file.value = "";
  });

  clear(root).append(
    h("h2", { text: t("verify.title") }),
    h("p", { text: t("verify.explain") }),
    h("div", { class: "button-row" }, button,
      h("a", { class: "btn", href: exportUrl, download: `match-${matchId}.json`, "data-testid": "verify-download", text: t("verify.download") })),
    h("label", { class: "field verify-file" }, h("span", { text: t("verify.file") }), file),
    out,
    h("p", { class: "muted" }, t("verify.cli"), " ", h("code", { text: "python -m app.engine.verify MATCH.json" })));
}
