// The probes tests/browser/test_decision_sheet.py runs in the page, one function per section.

// ---- COVERED
() => {
  // What a decision (or anything else on the table) must leave in sight: every seat's count,
  // the top card, the colour and the marker of whose turn it is.  Each is inside the window and
  // is what the browser finds at its centre (and, for the top card, at four points inside its
  // corners): nothing lies over it.  The colour chip and the top card do not overlap.
  const out = [];
  const px = (v) => Math.round(v);
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const seenAt = (el, x, y) => {
    const hit = document.elementFromPoint(x, y);
    return hit && (hit === el || el.contains(hit)) ? null : (hit ? `${hit.dataset.testid || hit.className || hit.tagName}` : 'nothing');
  };
  const check = (name, el, points = [[0.5, 0.5]]) => {
    if (!el || !el.getClientRects().length) { out.push(`${name}: not shown`); return; }
    const r = el.getBoundingClientRect();
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5 || r.width < 4 || r.height < 4) {
      out.push(`${name} out of view at ${px(r.left)},${px(r.top)}..${px(r.right)},${px(r.bottom)}`);
      return;
    }
    for (const [fx, fy] of points) {
      const by = seenAt(el, r.left + fx * r.width, r.top + fy * r.height);
      if (by) { out.push(`${name} covered by ${String(by).slice(0, 40)} at ${fx},${fy}`); return; }
    }
  };
  for (const chip of document.querySelectorAll('[data-testid=opponent]')) {
    check(`count of ${chip.querySelector('.opp-name').textContent}`, chip.querySelector('.opp-count'));
  }
  const top = document.querySelector('[data-testid=discard] .top-card');
  check('top card', top, [[0.5, 0.5], [0.2, 0.2], [0.8, 0.2], [0.2, 0.8], [0.8, 0.8]]);
  const colour = document.querySelector('[data-testid=declared-colour]');
  const edition = document.querySelector('[data-testid=table]').dataset.edition;
  if (edition !== 'all_wild' || (colour && colour.textContent.trim())) {
    check('colour', colour);
    if (top && colour && meets(top.getBoundingClientRect(), colour.getBoundingClientRect())) out.push('the top card and the colour overlap');
  }
  // Whose turn: the seat's marker, or yours — your bar's badge, or the status line saying so
  // (sideways, the sheet takes your bar's row).
  const q = (s) => document.querySelector(s);
  const me = q('[data-testid=me] .badge-turn');
  const free = (el) => {
    const r = el.getBoundingClientRect();
    return !seenAt(el, r.left + r.width / 2, r.top + r.height / 2);
  };
  const turn = q('[data-testid=opponent].turn') || (me && free(me) ? me : null) || q('[data-testid=status-line]');
  check('whose turn', turn);
  return out;
}

// ---- SHEET
() => {
  // Where a phone's sheet lies: its gap to the action bar (upright, the bar is the row below it)
  // or to the table's foot (sideways, the bar is the column beside it), its distance below the
  // top card, and each button of the action bar (Draw, UNO! or its Catch) and of the table's head
  // (rules, shortcuts, log and chat...): in the window, and what the browser finds at its centre
  // is the button (nothing lies over it: it can be pressed).
  const q = (s) => document.querySelector(s);
  const box = (s) => q(s).getBoundingClientRect();
  const d = box('[data-testid=dialog]');
  const table = box('[data-testid=table]');
  const bar = box('[data-testid=table] > .actions');
  const beside = bar.top < d.bottom - 12; // sideways: the bar's column stands beside the sheet
  const reach = (sel) => [...document.querySelectorAll(sel)]
    .filter((b) => b.getClientRects().length)
    .map((b) => {
      const r = b.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { name: b.dataset.testid, top: Math.round(r.top), bottom: Math.round(r.bottom),
        inView: r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5
          && r.bottom <= innerHeight + 0.5,
        free: !!hit && (hit === b || b.contains(hit)),
        by: hit ? String(hit.dataset.testid || hit.className) : null };
    });
  const buttons = reach('[data-testid=table] > .actions > .btn');
  const head = reach('[data-testid=table] > .table-head > button'); // rules, shortcuts, log and chat...
  const { sheet, edition } = q('[data-testid=table]').dataset;
  return { sheet, edition, beside,
    gap: Math.round(beside ? table.bottom - d.bottom : bar.top - d.bottom),
    below: Math.round(d.top - box('[data-testid=discard]').bottom), buttons, head };
}

// ---- NEWS
(shown) => {
  // Mario Kart's news strip (an item's flash, announce_view.js), drawn as the page draws it.
  const el = document.querySelector('[data-testid=item-flash]');
  if (!shown) { el.hidden = true; return; }
  el.replaceChildren();
  const card = document.createElement('div');
  card.className = 'flash-card';
  card.innerHTML = document.querySelector('[data-testid=discard] .top-card').outerHTML;
  const words = document.createElement('div');
  words.className = 'flash-text';
  for (const [tag, text, cls] of [['strong', 'Green Shell'], ['span', 'Estefanía flipped Green Shell (blue 5).'], ['span', 'Pick who draws a card.', 'muted']]) {
    const w = document.createElement(tag);
    w.textContent = text;
    if (cls) w.className = cls;
    words.append(w);
  }
  el.append(card, words);
  el.dataset.kind = 'item';
  el.hidden = false;
}

// ---- CHAT_LINES
() => {
  // The chat's messages wholly in sight in its list (scrolled to the latest, as the page keeps it).
  const list = document.querySelector('[data-testid=chat-list]');
  const box = list.getBoundingClientRect();
  const lines = [...list.querySelectorAll('.chat-line')];
  const whole = lines.filter((li) => {
    const r = li.getBoundingClientRect();
    return r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 && r.bottom <= innerHeight;
  });
  return { whole: whole.length, sent: lines.length, height: Math.round(box.height) };
}
