// The chat's unread count, on a badge reachable from the table on narrow screens (where the
// chat sits far below it).  A line is read once the chat has been on screen; your own lines
// and what was said before you arrived never count.  Tapping the badge brings the chat up.
import { t } from "./i18n.js";
import { h } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";

function bubble() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "20");
  svg.setAttribute("height", "20");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M4 4h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H10l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z");
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

export class ChatBadge {
  constructor(chatBlock, input) {
    this.block = chatBlock;
    this.input = input;
    this.seen = null; // the last chat entry n that counts as read
    this.latest = 0;
    this.unread = 0;
    this.visible = false;
    this.count = h("span", { class: "chat-badge-count" });
    this.el = h("button", { class: "chat-badge", type: "button", "data-testid": "chat-unread", hidden: true }, bubble(), this.count);
    this.el.addEventListener("click", () => {
      this.block.scrollIntoView({ block: "end" });
      this.input.focus({ preventScroll: true });
      this.markRead();
    });
    document.body.append(this.el);
    if (typeof IntersectionObserver === "function") {
      new IntersectionObserver((entries) => {
        this.visible = entries.some((e) => e.isIntersecting);
        if (this.visible) this.markRead();
      }, { threshold: 0.35 }).observe(chatBlock);
    }
  }

  markRead() {
    this.seen = this.latest;
    this.show(0);
  }

  /** After every view: count the lines that are new and not yours. */
  update(chat, you) {
    const last = chat.length ? chat[chat.length - 1].n : 0;
    if (this.seen === null) this.seen = last; // the history you arrived to is not news
    this.latest = last;
    if (this.visible) { this.markRead(); return; }
    const fresh = chat.filter((c) => c.n > this.seen);
    if (fresh.length && fresh.every((c) => c.seat !== null && c.seat === you)) { this.markRead(); return; }
    this.show(fresh.filter((c) => c.seat === null || c.seat !== you).length);
  }

  show(n) {
    this.unread = n;
    this.el.hidden = n === 0;
    this.el.dataset.count = String(n);
    const label = t("chat.unread", { n });
    this.count.textContent = String(n);
    this.el.setAttribute("aria-label", label);
    this.el.title = label;
  }
}
