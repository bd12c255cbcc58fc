// The fairness check, in the browser: the server's own rules engine (its Python source,
// /api/engine/source.zip) runs in Pyodide (static/vendor/pyodide/, WebAssembly) and
// `app.engine.verify.verify` — the function `python -m app.engine.verify` calls — checks an
// exported match.  A module worker, so that the page stays responsive while it works.
//
// In:  { text }  the export as JSON text.
// Out: { type: "stage", stage }  "loading" | "checking";
//      { type: "result", lines, unfair }  the "round N: fair" lines, and the reason it is not
//      fair (null when it is);  { type: "error", message }  the check could not run at all.
import { loadPyodide } from "/static/vendor/pyodide/pyodide.mjs";

const RUN = `
import json
from app.engine.verify import Unfair, verify

def check(text):
    lines = []
    try:
        doc = json.loads(text)
    except ValueError as err:
        return json.dumps({"lines": lines, "unfair": f"not a JSON document: {err}"})
    try:
        verify(doc, lines)
    except Unfair as err:
        return json.dumps({"lines": lines, "unfair": str(err)})
    return json.dumps({"lines": lines, "unfair": None})
`;

let ready = null;

async function start() {
  const pyodide = await loadPyodide({ indexURL: "/static/vendor/pyodide/", packages: [] });
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
    self.postMessage({ type: "result", lines: out.lines, unfair: out.unfair });
  } catch (err) {
    ready = null;
    self.postMessage({ type: "error", message: String((err && err.message) || err) });
  }
};
