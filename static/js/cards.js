// Card drawings: our own SVG, no trademarked art.  Every colour has a shape and a pattern as
// well as a hue (red triangle + stripes, yellow circle + dots, green square + grid, blue
// diamond + waves), so colour-blind players can play.
import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
export const COLOURS = ["red", "yellow", "green", "blue"];
const FILL = { red: "var(--c-red)", yellow: "var(--c-yellow)", green: "var(--c-green)", blue: "var(--c-blue)" };
const INK = { red: "var(--c-red-ink)", yellow: "var(--c-yellow-ink)", green: "var(--c-green-ink)", blue: "var(--c-blue-ink)" };

export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

function text(x, y, value, attrs = {}) {
  const el = s("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs });
  el.textContent = value;
  return el;
}

/** Shared <defs>: one pattern per colour.  Inserted once per page. */
export function installDefs() {
  if (document.getElementById("card-defs")) return;
  const pattern = (id, size, ...shapes) =>
    s("pattern", { id, width: size, height: size, patternUnits: "userSpaceOnUse" }, ...shapes);
  const w = { fill: "#fff", "fill-opacity": "0.22" };
  const defs = s("defs", {},
    pattern("pat-red", 8, s("path", { d: "M-2 2 L2 -2 M0 8 L8 0 M6 10 L10 6", stroke: "#fff", "stroke-opacity": "0.25", "stroke-width": 2 })),
    pattern("pat-yellow", 8, s("circle", { cx: 4, cy: 4, r: 1.6, ...w })),
    pattern("pat-green", 8, s("path", { d: "M0 0 H8 M0 0 V8", stroke: "#fff", "stroke-opacity": "0.22", "stroke-width": 1.4, fill: "none" })),
    pattern("pat-blue", 10, s("path", { d: "M0 5 Q2.5 2 5 5 T10 5", stroke: "#fff", "stroke-opacity": "0.25", "stroke-width": 1.4, fill: "none" })),
    pattern("pat-wild", 10, s("path", { d: "M0 10 L10 0", stroke: "#fff", "stroke-opacity": "0.06", "stroke-width": 3 })),
  );
  const holder = s("svg", { id: "card-defs", width: 0, height: 0, "aria-hidden": "true" }, defs);
  document.body.prepend(holder);
}

/** The colour's shape, centred on (x, y), of radius r. */
export function shape(colour, x, y, r, attrs = {}) {
  switch (colour) {
    case "red": return s("path", { d: `M${x} ${y - r} L${x + r} ${y + r * 0.8} L${x - r} ${y + r * 0.8} Z`, ...attrs });
    case "yellow": return s("circle", { cx: x, cy: y, r: r * 0.9, ...attrs });
    case "green": return s("rect", { x: x - r * 0.8, y: y - r * 0.8, width: r * 1.6, height: r * 1.6, ...attrs });
    case "blue": return s("path", { d: `M${x} ${y - r} L${x + r} ${y} L${x} ${y + r} L${x - r} ${y} Z`, ...attrs });
    default: return null;
  }
}

/** A small standalone SVG of a colour's shape, for labels and the declared-colour badge. */
export function colourBadge(colour, size = 18) {
  return s("svg", { viewBox: "0 0 20 20", width: size, height: size, class: `colour-badge colour-${colour}`, "aria-hidden": "true" },
    shape(colour, 10, 10, 8, { fill: FILL[colour], stroke: "var(--ink)", "stroke-width": 1.2 }));
}

function wheel(r) {
  // Four quarters: a wild card's mark.
  const q = (colour, a0) => {
    const a1 = a0 + Math.PI / 2;
    const p = (a) => `${(Math.cos(a) * r).toFixed(2)} ${(Math.sin(a) * r).toFixed(2)}`;
    return s("path", { d: `M0 0 L${p(a0)} A${r} ${r} 0 0 1 ${p(a1)} Z`, fill: FILL[colour] });
  };
  return s("g", {}, q("red", -Math.PI), q("blue", -Math.PI / 2), q("green", 0), q("yellow", Math.PI / 2));
}

function arrow(d, colour) {
  return s("path", { d, fill: "none", stroke: colour, "stroke-width": 4.5, "stroke-linecap": "round", "stroke-linejoin": "round" });
}

function skipMark(ink) {
  return s("g", {}, s("circle", { r: 11, fill: "none", stroke: ink, "stroke-width": 4.5 }),
    s("path", { d: "M-7.5 7.5 L7.5 -7.5", stroke: ink, "stroke-width": 4.5, "stroke-linecap": "round" }));
}

function reverseMark(ink) {
  return s("g", {},
    arrow("M-10 -3 A10 10 0 0 1 8 -6", ink), s("path", { d: "M4 -12 L11 -5 L2 -2 Z", fill: ink }),
    arrow("M10 3 A10 10 0 0 1 -8 6", ink), s("path", { d: "M-4 12 L-11 5 L-2 2 Z", fill: ink }));
}

function plus(n, ink, size = 19) {
  return text(0, 1, `+${n}`, { "font-size": size, "font-weight": 900, fill: ink, class: "card-num" });
}

/** The face's symbol, centred on (0, 0), about 30 units across. */
function symbol(face, ink, onWild) {
  const outline = onWild ? { stroke: "#1b1f2a", "stroke-width": 0.8, "paint-order": "stroke" } : {};
  if (/^\d$/.test(face)) return text(0, 1.5, face, { "font-size": 30, "font-weight": 900, fill: ink, class: "card-num", ...outline });
  switch (face) {
    case "skip": return skipMark(ink);
    case "reverse": return reverseMark(ink);
    case "draw2": return plus(2, ink);
    case "draw1": return plus(1, ink);
    case "wild": return wheel(13);
    case "wild_draw4": return s("g", {}, wheel(13), plus(4, "#fff", 15));
    case "wild_draw2": return s("g", {}, wheel(13), plus(2, "#fff", 15));
    case "item_box": return s("g", {},
      s("rect", { x: -12, y: -12, width: 24, height: 24, rx: 5, fill: "#fff", stroke: "#1b1f2a", "stroke-width": 2 }),
      s("rect", { x: -12, y: -12, width: 24, height: 24, rx: 5, fill: "url(#pat-wild)" }),
      text(0, 1, "?", { "font-size": 20, "font-weight": 900, fill: "#1b1f2a" }));
    case "wild_dip": return s("g", {}, wheel(13),
      s("rect", { x: -7, y: -11, width: 14, height: 10, rx: 2, fill: "#fff", stroke: "#1b1f2a", "stroke-width": 1.4 }),
      s("path", { d: "M0 -2 L0 9 M-5 4 L0 10 L5 4", stroke: "#fff", "stroke-width": 3, fill: "none", "stroke-linecap": "round" }));
    case "wild_reverse": return s("g", {}, wheel(13), s("g", { transform: "scale(.8)" }, reverseMark("#fff")));
    case "wild_skip": return s("g", {}, wheel(13), s("g", { transform: "scale(.8)" }, skipMark("#fff")));
    case "wild_skip2": return s("g", {}, wheel(13), s("g", { transform: "translate(-4 0) scale(.6)" }, skipMark("#fff")),
      s("g", { transform: "translate(5 0) scale(.6)" }, skipMark("#fff")));
    case "wild_targeted_draw2": return s("g", {}, wheel(13),
      s("circle", { r: 9, fill: "none", stroke: "#fff", "stroke-width": 2 }),
      s("path", { d: "M0 -14 V-8 M0 8 V14 M-14 0 H-8 M8 0 H14", stroke: "#fff", "stroke-width": 2 }),
      plus(2, "#fff", 11));
    case "wild_forced_swap": return s("g", {}, wheel(13),
      s("path", { d: "M-9 -4 H8 M4 -8 L9 -4 L4 0 M9 4 H-8 M-4 0 L-9 4 L-4 8", stroke: "#fff", "stroke-width": 2.6, fill: "none", "stroke-linecap": "round", "stroke-linejoin": "round" }));
    default: return text(0, 0, "?", { "font-size": 22, fill: ink });
  }
}

/** Mario Kart items: simple shapes of our own, centred on (0, 0), about 16 units across. */
export function itemIcon(item) {
  switch (item) {
    case "mushroom": return s("g", {},
      s("path", { d: "M-8 1 A8 7 0 0 1 8 1 Z", fill: "#d7263d", stroke: "#1b1f2a", "stroke-width": 1 }),
      s("circle", { cx: -3, cy: -2.5, r: 1.6, fill: "#fff" }), s("circle", { cx: 3.5, cy: -2, r: 1.3, fill: "#fff" }),
      s("rect", { x: -3.5, y: 1, width: 7, height: 6, rx: 2, fill: "#f6e7c8", stroke: "#1b1f2a", "stroke-width": 1 }));
    case "banana_peel": return s("path", { d: "M-7 -6 Q-9 6 6 7 Q0 3 -2 -6 Z", fill: "#f4d03f", stroke: "#1b1f2a", "stroke-width": 1 });
    case "green_shell": return s("g", {},
      s("circle", { r: 7.5, fill: "#2e9e4f", stroke: "#1b1f2a", "stroke-width": 1 }),
      s("path", { d: "M0 -4 L3.5 -2 L3.5 2 L0 4 L-3.5 2 L-3.5 -2 Z", fill: "#bfe8c9" }));
    case "lightning": return s("path", { d: "M2 -8 L-5 1 L0 1 L-2 8 L5 -1 L0 -1 Z", fill: "#ffd23f", stroke: "#1b1f2a", "stroke-width": 1 });
    case "bob_omb": return s("g", {},
      s("circle", { cx: 0, cy: 2, r: 6.5, fill: "#222", stroke: "#fff", "stroke-width": 0.8 }),
      s("path", { d: "M3 -4 Q6 -8 8 -6", stroke: "#c58a2c", "stroke-width": 1.6, fill: "none" }),
      s("circle", { cx: 8, cy: -6.5, r: 1.6, fill: "#ff9f1c" }),
      s("circle", { cx: -2, cy: 0, r: 1.4, fill: "#fff" }));
    default: return null;
  }
}

export function itemSvg(item, size = 28) {
  return s("svg", { viewBox: "-10 -10 20 20", width: size, height: size, class: "item-icon", "aria-hidden": "true" }, itemIcon(item));
}

/** The card's name in the current language, e.g. "red 7", "Wild Draw Four". */
export function cardName(card) {
  if (!card) return "";
  const face = /^\d$/.test(card.face) ? card.face : t(`face.${card.face}`);
  return card.colour ? t("card.coloured", { colour: t(`colour.${card.colour}`), face }) : face;
}

export function cardLabel(card) {
  const base = cardName(card);
  return card.item ? `${base} (${t(`item.${card.item}`)})` : base;
}

/** The SVG of a card face (60 × 90 units). */
export function cardSvg(card) {
  const colour = card.colour;
  const wild = !colour;
  const fill = wild ? "#1f2330" : FILL[colour];
  const ink = wild ? "#fff" : INK[colour];
  const g = s("svg", { viewBox: "0 0 60 90", class: "card-svg", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1, y: 1, width: 58, height: 88, rx: 7, fill: "#fff" }),
    s("rect", { x: 4, y: 4, width: 52, height: 82, rx: 5, fill }),
    s("rect", { x: 4, y: 4, width: 52, height: 82, rx: 5, fill: `url(#pat-${colour || "wild"})` }),
    s("ellipse", { cx: 30, cy: 45, rx: 21, ry: 25, fill: wild ? "#2b3142" : "#fff" }),
    s("g", { transform: "translate(30 45)" }, symbol(card.face, wild ? "#fff" : ink, wild)),
  );
  // Corner indices: the symbol small, and the colour's shape under it.
  for (const [x, y, rot] of [[12, 14, 0], [48, 76, 180]]) {
    const corner = s("g", { transform: `translate(${x} ${y}) rotate(${rot})` },
      s("g", { transform: "scale(.42)" }, symbol(card.face, "#fff", true)));
    if (colour) corner.append(shape(colour, 0, 11, 3.2, { fill: "#fff", stroke: "#1b1f2a", "stroke-width": 0.6 }));
    g.append(corner);
  }
  if (card.item) {
    g.append(s("g", { transform: "translate(47 15)" },
      s("circle", { r: 8.5, fill: "#fff", stroke: "#1b1f2a", "stroke-width": 0.8 }),
      s("g", { transform: "scale(.8)" }, itemIcon(card.item))));
  }
  return g;
}

export function cardBackSvg() {
  return s("svg", { viewBox: "0 0 60 90", class: "card-svg", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1, y: 1, width: 58, height: 88, rx: 7, fill: "#fff" }),
    s("rect", { x: 4, y: 4, width: 52, height: 82, rx: 5, fill: "#1f2330" }),
    s("rect", { x: 4, y: 4, width: 52, height: 82, rx: 5, fill: "url(#pat-wild)" }),
    s("g", { transform: "translate(30 45) rotate(-20)" }, s("ellipse", { rx: 20, ry: 27, fill: "#2b3142", stroke: "#fff", "stroke-width": 1.5 }),
      s("g", { transform: "scale(1.2)" }, wheel(12))));
}

// Hands sorted by colour, then wilds last, then by face.
const FACE_ORDER = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "draw1", "draw2", "skip", "reverse",
  "wild", "item_box", "wild_dip", "wild_reverse", "wild_skip", "wild_skip2", "wild_draw2", "wild_targeted_draw2",
  "wild_forced_swap", "wild_draw4"];

export function sortHand(cards) {
  const rank = (c) => [c.colour ? COLOURS.indexOf(c.colour) : 9, FACE_ORDER.indexOf(c.face), c.id];
  return [...cards].sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    for (let i = 0; i < ra.length; i += 1) if (ra[i] !== rb[i]) return ra[i] - rb[i];
    return 0;
  });
}
