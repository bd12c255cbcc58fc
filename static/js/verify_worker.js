// The fairness check, in the browser: the server's own rules engine (its Python source,
// /api/engine/source.zip) runs in Pyodide (static/vendor/pyodide/, WebAssembly) and
// `app.engine.verify.verify` — the function `python -m app.engine.verify` calls — checks an
// exported match.  A module worker, so that the page stays responsive while it works.
//
// In:  { text }  the export as JSON text.
// Out: { type: "stage", stage }  "loading" | "checking";
//      { type: "result", lines, unfair, signature }  the "round N: fair" lines, the reason it is
//      not fair (null when it is), and { state, keyId, reason } for the export's signature
//      against this server's key (state: "valid" | "invalid" | "unsigned" | "unchecked");
//      { type: "error", message }  the check could not run at all.
//
// Pyodide's URL names its version (scripts/vendor_pyodide.sh), so that its files can be cached
// for good: a new version is a new URL.
import { loadPyodide } from "/static/vendor/pyodide/314.0.7/pyodide.mjs";

const PYODIDE = "/static/vendor/pyodide/314.0.7/";

const RUN = `
import base64, json
from app.engine.audit import SIGNATURE, signed_bytes
from app.engine.verify import Unfair, verify

def check(text):
    lines = []
    try:
        doc = json.loads(text)
    except ValueError as err:
        return json.dumps({"lines": lines, "unfair": f"not a JSON document: {err}"})
    signature = doc.get(SIGNATURE) if isinstance(doc, dict) else None
    # The bytes the signature is over, made by the engine's own function (as the server's).
    signed = base64.b64encode(signed_bytes(doc)).decode() if isinstance(signature, dict) else None
    try:
        verify(doc, lines)
    except Unfair as err:
        return json.dumps({"lines": lines, "unfair": str(err), "signature": signature, "signed": signed})
    return json.dumps({"lines": lines, "unfair": None, "signature": signature, "signed": signed})
`;

const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

/** The export's signature (Ed25519, WebCrypto) against the key this server publishes. */
async function signatureCheck(signature, signed) {
  if (!signature || !signed) return { state: "unsigned" };
  try {
    const res = await fetch("/api/signing-key");
    if (!res.ok) return { state: "unchecked", reason: `HTTP ${res.status}` };
    const key = await res.json();
    if (signature.algorithm !== key.algorithm) return { state: "invalid", keyId: key.key_id };
    const pub = await crypto.subtle.importKey("raw", bytes(key.public_key), { name: "Ed25519" }, false, ["verify"]);
    const ok = await crypto.subtle.verify({ name: "Ed25519" }, pub, bytes(String(signature.value)), bytes(signed));
    return { state: ok ? "valid" : "invalid", keyId: key.key_id };
  } catch (err) {
    return { state: "unchecked", reason: String((err && err.message) || err) };
  }
}

let ready = null;

async function start() {
  const pyodide = await loadPyodide({ indexURL: PYODIDE, packages: [] });
  const res = await fetch("/api/engine/source.zip");
  if (!res.ok) throw new Error(`engine source: HTTP ${res.status}`);
  pyodide.unpackArchive(await res.arrayBuffer(), "zip", { extractDir: "/home/pyodide/uno" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/uno')");
  pyodide.runPython(RUN);
  return pyodide.globals.get("check");
}

self.onmessage = async (event) => {
  try {
    if (!ready) {
      self.postMessage({ type: "stage", stage: "loading" });
      ready = start();
    }
    const check = await ready;
    self.postMessage({ type: "stage", stage: "checking" });
    const out = JSON.parse(check(String(event.data.text)));
    const signature = await signatureCheck(out.signature, out.signed);
    self.postMessage({ type: "result", lines: out.lines, unfair: out.unfair, signature });
  } catch (err) {
    ready = null;
    self.postMessage({ type: "error", message: String((err && err.message) || err) });
  }
};
