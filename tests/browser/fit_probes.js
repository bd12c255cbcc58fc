// The probes tests/browser/test_table_fit.py runs in the page, one function per section.

// ---- DECISIONS
async ([edition, big]) => {
  const { t } = await import('/static/js/i18n.js');
  const w = await import('/static/js/wording.js');
  const seats = [...document.querySelectorAll('[data-testid=opponent]')].map((el) => ({
    seat: Number(el.dataset.seat), name: el.querySelector('.opp-name').textContent, n: Number(el.dataset.cards) }));
  const nameOf = (s) => (seats.find((x) => x.seat === s) || { name: 'Anastazja' }).name;
  const other = seats[0].seat;
  const colours = ['red', 'yellow', 'green', 'blue'];
  const faces = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'skip', 'reverse', 'draw2'];
  const hand = Array.from({ length: big ? 16 : 7 }, (_, i) => ({ id: 900 + i, face: faces[i % faces.length], colour: colours[i % 4] }));
  const wild = edition === 'all_wild';
  const wd = { id: 990, face: edition === 'pocket_pizza' ? 'wild_draw2' : wild ? 'wild_forced_swap' : 'wild_draw4', colour: null };
  const targets = (card) => ({ kind: 'target', title: w.targetTitle(card), cancel: true,
    options: seats.map((s) => ({ label: s.name, sub: t('table.cards', { n: s.n }), count: s.n,
      option: `seat-${s.seat}`, action: {} })) });
  const out = {};
  if (!wild) {
    out.colour = { kind: 'colour', title: t('dialog.colour'), card: wd, cancel: true,
      options: colours.map((c) => ({ label: t(`colour.${c}`), colour: c, option: c, action: {} })) };
    out['colour-reason'] = { kind: 'colour', title: t('dialog.colour'), text: t(edition === 'mario_kart' ? 'reason.bob_omb' : 'reason.first_card'),
      options: colours.map((c) => ({ label: t(`colour.${c}`), colour: c, option: c, action: {} })) };
    const pending = { kind: 'challenge', penalty: edition === 'pocket_pizza' ? 2 : 4, challenged: other, replaced_colour: edition === 'pocket_pizza' ? null : 'red' };
    out.challenge = { kind: 'challenge', title: t('dialog.challenge_title'), text: w.challengeText(edition, pending, wd, nameOf),
      replaced: pending.replaced_colour, card: wd, options: [
        { label: t('dialog.accept', { n: pending.penalty }), option: 'accept', action: {} },
        { label: t('dialog.challenge'), option: 'challenge', action: {} }] };
    // A penalty with every way out (HR-1 to HR-4): the longest line a stack shows.
    out.stack = { kind: 'stack', title: t('stack.coming', { n: 8 }),
      text: ['stack.way_answer', 'stack.way_reverse', 'stack.way_skip'].map((k) => t(k)).concat(t('stack.or_take', { n: 8 })).join(' '),
      options: [{ label: t('dialog.take_cards', { n: 8 }), option: 'accept', action: {} }] };
  }
  out.target = targets(wild ? wd : { id: 991, face: '7', colour: 'blue' });
  if (wild) out['target-draw2'] = targets({ id: 992, face: 'wild_targeted_draw2', colour: null });
  if (edition === 'mario_kart') out['target-shell'] = { ...targets(wd), title: t('dialog.target_plain'), text: t('reason.green_shell'), cancel: false };
  if (edition === 'pocket_pizza') {
    out.pass = { kind: 'pass', title: t('dialog.pass_title', { name: nameOf(other) }), text: t('dialog.pass_uno'),
      options: hand.map((c) => ({ label: c.face, card: c, option: `card-${c.id}`, action: {} })) };
  }
  // HR-8, HR-9: a batch of 7s being built, two of four joined: a bomb.
  const sevens = colours.map((c, i) => ({ id: 980 + i, face: '7', colour: c }));
  const name7 = (c) => `${t(`colour.${c.colour}`)} 7`;
  out.batch = { kind: 'batch', title: t('batch.title', { face: '7' }), card: sevens[0], cancel: true, bomb: true,
    hint: t('batch.text', { face: '7' }),
    text: `${t('batch.last_acts', { card: name7(sevens[2]) })} ${t('batch.bomb')}`,
    options: [...sevens.slice(1).map((c, i) => ({ label: t(i < 2 ? 'batch.remove' : 'batch.add', { card: name7(c) }), card: c, option: `mate-${c.id}`, pressed: i < 2, toggle: c.id })),
      { label: t('batch.play_n', { n: 3 }), option: 'play-batch', primary: true, play: {} }] };
  const drawn = hand[4];
  out.drawn = { kind: wild ? 'special' : 'drawn', title: t(wild ? 'dialog.special_title' : 'dialog.drawn_title'), text: `${t(`colour.${drawn.colour}`)} ${drawn.face}`, card: drawn,
    options: [{ label: t('dialog.play_it'), option: 'play', action: {} }, { label: t('dialog.play_uno'), option: 'play-uno', primary: true, action: {} },
      ...(wild ? [] : [{ label: t('dialog.keep'), option: 'keep', action: {} }])] };
  out.uno = { kind: 'uno', title: 'Wild', text: t('tip.uno_title'), card: wd, cancel: true,
    options: [{ label: t('dialog.play_it'), option: 'play', action: {} }, { label: t('dialog.play_uno'), option: 'play-uno', primary: true, action: {} }] };
  window.decisions = out;
  return Object.keys(out);
}

// ---- SHOW
async (kind) => {
  const { showDecision } = await import('/static/js/dialog_view.js');
  const el = document.querySelector('[data-testid=dialog]');
  const area = el.closest('[data-testid=announce]'); // none on a phone: the box is a bottom sheet there
  if (area) area.scrollTop = 0;
  showDecision(el, window.decisions[kind], { run: () => {}, cancel: () => {}, table: document.querySelector('[data-testid=table]') });
}

// ---- UNSEEN
([box, controls]) => {
  const out = [];
  const px = (v) => Math.round(v);
  const root = document.querySelector(box);
  if (!root || root.hidden) return ['no ' + box];
  const clips = [];
  for (let n = root; n; n = n.parentElement) {
    const s = getComputedStyle(n);
    if (n === root || s.overflowX !== 'visible' || s.overflowY !== 'visible') clips.push([n, n.getBoundingClientRect()]);
  }
  const view = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  for (const el of root.querySelectorAll(controls)) {
    if (!el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    const name = `${el.dataset.testid || el.className} "${el.textContent.trim().slice(0, 30)}"`;
    for (const [n, c] of [[null, view], ...clips]) {
      const e = 0.5; // half a pixel of rounding
      if (r.left < c.left - e || r.top < c.top - e || r.right > c.right + e || r.bottom > c.bottom + e) {
        out.push(`${name} at ${px(r.left)},${px(r.top)}..${px(r.right)},${px(r.bottom)} outside ${n ? (n.dataset.testid || n.className) : 'window'} `
          + `${px(c.left)},${px(c.top)}..${px(c.right)},${px(c.bottom)}`);
        break;
      }
    }
    for (const t of [el, ...el.querySelectorAll('*')]) {
      if (t instanceof HTMLElement && t.getClientRects().length && !t.matches('.visually-hidden')
          && (t.scrollWidth > t.clientWidth + 1 || t.scrollHeight > t.clientHeight + 1) && getComputedStyle(t).overflow !== 'visible') {
        out.push(`${name}: text cut (${t.scrollWidth}×${t.scrollHeight} in ${t.clientWidth}×${t.clientHeight})`);
        break;
      }
    }
  }
  for (const [n] of clips) if (n.scrollTop || n.scrollLeft) out.push(`${n.dataset.testid || n.className} scrolled`);
  return out;
}

// ---- SEATS
() => {
  const out = [];
  const q = (s) => [...document.querySelectorAll(s)];
  const strip = document.querySelector('[data-testid=opponents]');
  if (strip.scrollWidth > strip.clientWidth + 1) out.push(`seats scroll sideways: ${strip.scrollWidth} > ${strip.clientWidth}`);
  const sel = '.table-head *, [data-testid=opponent], [data-testid=opponent] *, [data-testid=me] *, .actions .btn';
  for (const el of q(sel)) {
    if (!(el instanceof HTMLElement) || !el.getClientRects().length || el.clientWidth <= 1) continue; // not shown, or for screen readers only
    const r = el.getBoundingClientRect();
    const name = `${el.className} "${el.textContent.trim().slice(0, 24)}"`;
    if (r.right > innerWidth + 0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5) out.push(`${name} off screen at ${Math.round(r.left)}..${Math.round(r.right)}`);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') out.push(`${name} cut: ${el.scrollWidth} > ${el.clientWidth}`);
    if (el.matches('.opp-name, .badge') && el.clientWidth && el.scrollWidth > el.clientWidth + 1) out.push(`${name} spills: ${el.scrollWidth} > ${el.clientWidth}`);
  }
  const turn = q('[data-testid=opponent].turn').length + (document.querySelector('[data-testid=me] .badge-turn') ? 1 : 0);
  const next = q('[data-testid=next-marker]').length + (document.querySelector('[data-testid=me-next]') ? 1 : 0);
  return { out, seats: q('[data-testid=opponent]').length, turn, next };
}

// ---- SIDE
() => {
  const side = document.querySelector('#side-panel');
  const s = side.getBoundingClientRect();
  const out = [];
  for (const li of side.querySelectorAll('.score-list li')) {
    const r = li.getBoundingClientRect();
    const box = li.closest('.side-block').getBoundingClientRect();
    if (!r.height || r.top < Math.max(0, s.top, box.top) - 0.5 || r.bottom > Math.min(innerHeight, s.bottom, box.bottom) + 0.5) {
      out.push(`score "${li.textContent}" out of sight at ${Math.round(r.top)}..${Math.round(r.bottom)}`);
    }
  }
  if (side.scrollHeight > side.clientHeight + 1) out.push(`side panel scrolls: ${side.scrollHeight} > ${side.clientHeight}`);
  const chat = side.querySelector('[data-testid=chat-list]');
  const line = parseFloat(getComputedStyle(chat).lineHeight) || 20;
  const input = side.querySelector('[data-testid=chat-input]').getBoundingClientRect();
  if (input.bottom > innerHeight + 0.5) out.push('chat input below the window');
  const watch = side.querySelector('[data-testid=spectator-options]');
  return { out, rows: side.querySelectorAll('.score-list li').length, chatLines: chat.clientHeight / line,
           folded: !!watch && !watch.open, watchHeight: watch ? watch.getBoundingClientRect().height : 0 };
}

// ---- LOW_CONTRAST
(root) => {
  // Every text of `root` (a selector) shown on screen whose contrast (WCAG 2) is under 4.5:1
  // against what is really behind it: the backgrounds up to the first opaque one, a gradient
  // counted by its every colour stop (the text may sit on any of them), opacity included.
  const parse = (c) => { const m = c.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const over = (top, bottom) => top.slice(0, 3).map((v, i) => v * top[3] + bottom[i] * (1 - top[3])).concat([1]);
  const lum = (c) => {
    const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    const [r, g, b] = c.slice(0, 3).map(lin);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const firstImage = (img) => { // the topmost of a list of background images
    let depth = 0;
    for (let i = 0; i < img.length; i += 1) {
      if (img[i] === '(') depth += 1; else if (img[i] === ')') depth -= 1; else if (img[i] === ',' && depth === 0) return img.slice(0, i);
    }
    return img;
  };
  const layersOf = (n, alpha) => {
    const s = getComputedStyle(n);
    const img = s.backgroundImage && s.backgroundImage !== 'none' ? firstImage(s.backgroundImage) : '';
    const stops = img.includes('gradient') ? (img.match(/rgba?\([^)]*\)/g) || []).map(parse) : [];
    const colour = parse(s.backgroundColor);
    const out = stops.length ? stops : colour[3] > 0 ? [colour] : [];
    return out.map((c) => [c[0], c[1], c[2], c[3] * alpha]);
  };
  const opacity = (el) => { let o = 1; for (let n = el; n; n = n.parentElement) o *= Number(getComputedStyle(n).opacity); return o; };
  const bad = [];
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || seen.has(el) || el.closest('svg, [hidden], .visually-hidden, option')) continue;
    seen.add(el);
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden' || el.clientWidth === 1) continue;
    if (el.closest('button:disabled, [aria-disabled=true]')) continue; // inactive controls (WCAG 1.4.3)
    const chain = [];
    for (let n = el; n; n = n.parentElement) {
      const layer = layersOf(n, opacity(n));
      if (layer.length) chain.push(layer);
      if (layer.length && layer.every((c) => c[3] >= 1)) break;
    }
    let under = [[255, 255, 255, 1]];
    for (const layer of chain.reverse()) {
      const next = [];
      for (const c of layer) for (const u of under) next.push(over(c, u));
      under = next.slice(0, 64);
    }
    const fg0 = parse(getComputedStyle(el).color);
    const fg = [fg0[0], fg0[1], fg0[2], fg0[3] * opacity(el)];
    const worst = Math.min(...under.map((u) => ratio(over(fg, u), u)));
    if (worst < 4.5) bad.push(`"${node.textContent.trim().slice(0, 30)}" (${el.className || el.tagName}) ${worst.toFixed(2)}:1`);
  }
  return bad;
}
