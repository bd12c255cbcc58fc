// "Your turn", while you look elsewhere: when a call arrives (attention.js) and this page is out
// of sight, a notification — only if the player asked for them, with the Alerts menu's button
// (never on page load), and the browser granted them — and, with or without it, the tab's title
// ("● Your turn · …") and its icon (a dot on the cards).  Both are put back as soon as the page is
// seen again.  Notifications need a secure context (HTTPS or localhost): elsewhere the offer is
// never made.
import { t } from "../i18n.js";
import { secure } from "./install.js";
import { attentionTitle } from "./attention.js";

export const NOTIFY_KEY = "uno.notify";
const ICON = "/static/img/icon.svg";
const ICON_CALLING = "/static/img/icon-turn.svg";
const BADGE = "/static/img/icon-192.png";

function stored() {
  try { return localStorage.getItem(NOTIFY_KEY) === "on"; } catch { return false; }
}

/** Whether notifications can be offered here at all. */
export function canNotify() {
  return secure() && typeof window.Notification === "function";
}

export class Notifier {
  constructor() {
    this.wanted = stored(); // the player asked for them on this device
    this.calling = null; // the call shown in the title and icon while hidden
    this.baseTitle = document.title;
    this.shown = null; // the notification on screen, closed when the page is seen
    document.addEventListener("visibilitychange", () => { if (!this.hidden()) this.clear(); });
  }

  hidden() {
    return document.visibilityState === "hidden";
  }

  /** "on" (asked for and granted), "blocked" (the browser said no), "off" (not asked), or "none". */
  state() {
    if (!canNotify()) return "none";
    if (Notification.permission === "denied") return "blocked";
    return this.wanted && Notification.permission === "granted" ? "on" : "off";
  }

  /** The opt-in button's work: asks the browser (in the click, as browsers require) and remembers. */
  async ask() {
    if (!canNotify()) return this.state();
    let answer = Notification.permission;
    if (answer === "default") {
      try { answer = await Notification.requestPermission(); } catch { answer = "denied"; }
    }
    this.remember(answer === "granted");
    return this.state();
  }

  remember(on) {
    this.wanted = on;
    try { localStorage.setItem(NOTIFY_KEY, on ? "on" : "off"); } catch { /* private mode */ }
  }

  /** The page's own title, as the table sets it for each view; shown with the call while hidden. */
  title(base) {
    this.baseTitle = base;
    document.title = this.calling ? attentionTitle(base, this.calling) : base;
  }

  /** A new call: while the page is hidden, the title, the icon and (when on) a notification. */
  call(call, words) {
    if (!call || !this.hidden()) return;
    this.calling = words.label;
    document.title = attentionTitle(this.baseTitle, this.calling);
    setIcon(ICON_CALLING);
    if (this.state() === "on") this.notify(words);
  }

  notify({ title, body, tag }) {
    const options = { body, tag: `uno-${tag}`, icon: BADGE, data: { url: location.pathname } };
    try {
      const note = new Notification(title, options);
      note.onclick = () => { window.focus(); note.close(); };
      this.shown = note;
    } catch {
      // Android's browsers show notifications only through the service worker.
      if (navigator.serviceWorker) {
        navigator.serviceWorker.ready.then((reg) => reg.showNotification(title, options)).catch(() => {});
      }
    }
  }

  clear() {
    if (this.shown) { this.shown.close(); this.shown = null; }
    if (!this.calling) return;
    this.calling = null;
    document.title = this.baseTitle;
    setIcon(ICON);
  }
}

function setIcon(href) {
  const link = document.querySelector("link[data-icon]");
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** The words of a call in room `room`: the title's label and the notification's text. */
export function callWords(call, room, nameOf, target) {
  const label = t(`attention.${call}`);
  const body = call === "catch" ? t("notify.catch", { room, name: nameOf(target) }) : t(`notify.${call}`, { room });
  return { label, title: `${label} — ${t("app.name")}`, body, tag: call };
}
