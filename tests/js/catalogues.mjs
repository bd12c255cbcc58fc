// The browser globals the client's catalogue loader needs, under Node: `document`'s language and a
// `fetch` that reads the catalogues (and any other static file) from the repository itself.
import { readFile } from "node:fs/promises";

const root = new URL("../../", import.meta.url);
globalThis.document = { documentElement: { lang: "en" } };
globalThis.fetch = async (path) => {
  const text = await readFile(new URL(path.replace(/^\//, ""), root), "utf8");
  return { ok: true, json: async () => JSON.parse(text) };
};
