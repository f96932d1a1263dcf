// The admin panel's building blocks, shared by its tabs: sections, tables
// with paging, buttons that say how their action went, progress bars,
// charts drawn as SVG by this code, and the one live stream of library
// events. Text is always set as text, never as HTML: titles, paths and
// log lines come from disks and people.
import { t, has, currentLang } from './i18n.js';
import { api, token, readable } from './api.js';
import { el, toast } from './ui.js';

const svgNS = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

/** A titled block of a tab; titleKey is an i18n key. */
export function section(titleKey, ...children) {
  // data-i18n: a language switch relabels it in place (applyI18n).
  return el('section', { class: 'block' }, el('h2', { dataset: { i18n: titleKey } }, t(titleKey)), ...children);
}

/** Bytes as people read them: 1.2 GB / 1,2 ГБ. */
export function formatBytes(n) {
  const units = currentLang() === 'ru' ? ['Б', 'КБ', 'МБ', 'ГБ', 'ТБ'] : ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = Number(n) || 0;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return new Intl.NumberFormat(currentLang(), { maximumFractionDigits: v < 10 && i ? 1 : 0 }).format(v) + ' ' + units[i];
}

/** A whole number with the language's grouping. */
export const formatNumber = (n) => new Intl.NumberFormat(currentLang()).format(Number(n) || 0);

/** An ISO time as a local date and time, '—' when absent. */
export function formatDate(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString(currentLang());
}

/**
 * Runs fn for a button: the button is disabled meanwhile, success shows
 * okText (when given) and failure the API's message, so nothing fails
 * silently. Resolves to fn's result, or undefined when it failed.
 *
 * The button is enabled again only when action() was what disabled it (a
 * button already disabled stays so) and fn did not call keep(): fn gets
 * {keep}, for a button that must stay disabled after its action (a build
 * or a classification it started is running; an applied plan).
 */
export async function action(button, fn, okText) {
  const mine = !!button && !button.disabled;
  let kept = false;
  if (mine) button.disabled = true;
  try {
    const out = await fn({ keep: () => { kept = true; } });
    if (okText) toast(okText, 'info');
    return out;
  } catch (err) {
    if (err && err.name === 'AbortError') return undefined;
    toast(readable(err));
    return undefined;
  } finally {
    if (mine && !kept) button.disabled = false;
  }
}

/**
 * A button that asks first: a click shows "question  Yes  No" in its
 * place (no confirm() dialog); Yes runs fn as action() does, then the
 * button comes back. Options: kind (the button's look), id, act (its
 * data-act), okText (the toast of a success).
 */
export function confirmButton(labelKey, question, fn, { kind = 'danger', id, act, okText } = {}) {
  const wrap = el('span', { class: 'confirm' });
  const start = el('button', { type: 'button', class: 'btn ' + kind, id, dataset: act ? { act } : {} }, t(labelKey));
  const idle = () => wrap.replaceChildren(start);
  start.addEventListener('click', () => {
    const yes = el('button', { type: 'button', class: 'btn danger confirm-yes', dataset: { confirm: 'yes' } }, t('admin.yes'));
    const no = el('button', { type: 'button', class: 'btn confirm-no', dataset: { confirm: 'no' }, onclick: idle }, t('admin.no'));
    yes.addEventListener('click', async () => { no.disabled = true; await action(yes, fn, okText); idle(); });
    wrap.replaceChildren(el('span', { class: 'note' }, typeof question === 'function' ? question() : question), yes, no);
    yes.focus();
  });
  wrap.append(start);
  return wrap;
}

/** An <option>; selected when value is the chosen one. */
export const option = (value, text, selected) => el('option', { value, selected: value === selected }, text);

/** A <select> of [value, text] pairs with an accessible name. */
export const select = (id, items, value, label) => el('select', { id, 'aria-label': label }, items.map(([v, txt]) => option(v, txt, value)));

/**
 * Replaces node's children, skipping the absent ones (the DOM's own
 * replaceChildren would write null as text).
 */
export const fill = (node, ...kids) => node.replaceChildren(...kids.flat(2).filter((k) => k !== null && k !== undefined && k !== false));

/** A button with an i18n label that runs action(fn). */
export function button(labelKey, fn, { okKey, kind = '' } = {}) {
  const b = el('button', { type: 'button', class: 'btn ' + kind, dataset: { i18n: labelKey } }, t(labelKey));
  b.addEventListener('click', () => action(b, fn, okKey ? t(okKey) : undefined));
  return b;
}

/**
 * A table: columns are {label: i18n key, cell: row → text or node, class}.
 * An empty list shows emptyKey's text in one row.
 */
export function table(columns, rows, emptyKey = 'admin.empty') {
  const head = el('tr', {}, columns.map((c) => el('th', { class: c.class || '', dataset: c.label ? { i18n: c.label } : {} }, c.label ? t(c.label) : '')));
  const body = rows.length
    ? rows.map((r) => el('tr', {}, columns.map((c) => el('td', { class: c.class || '' }, c.cell(r)))))
    : [el('tr', {}, el('td', { colspan: String(columns.length), class: 'empty' }, t(emptyKey)))];
  return el('div', { class: 'table-wrap' }, el('table', { class: 'grid-table' }, el('thead', {}, head), el('tbody', {}, body)));
}

/** Paging under a list: "21–40 of 135" with back and forward. */
export function pager({ total, limit, offset, onPage }) {
  const from = total ? offset + 1 : 0;
  const to = Math.min(total, offset + limit);
  const prev = el('button', { type: 'button', class: 'btn', disabled: offset <= 0, onclick: () => onPage(Math.max(0, offset - limit)) }, '‹');
  const next = el('button', { type: 'button', class: 'btn', disabled: offset + limit >= total, onclick: () => onPage(offset + limit) }, '›');
  prev.setAttribute('aria-label', t('admin.prev'));
  next.setAttribute('aria-label', t('admin.next'));
  return el('div', { class: 'pager' }, prev, el('span', {}, t('admin.range', { from: formatNumber(from), to: formatNumber(to), total: formatNumber(total) })), next);
}

/** A progress bar; max 0 shows an undetermined one. */
export function progress(value, max, label = '') {
  const p = el('progress', { class: 'progress' });
  if (max > 0) { p.max = max; p.value = Math.min(value, max); }
  return el('div', { class: 'progress-row' }, p, el('span', { class: 'note' }, label));
}

/**
 * Horizontal bars, one per {label, value}: labels stay readable on a
 * phone whatever their length. The longest bar fills the width.
 */
export function barChart(items, { unit = formatNumber } = {}) {
  const rowH = 26;
  const max = Math.max(1, ...items.map((i) => i.value));
  const chart = svg('svg', { class: 'chart bars', viewBox: `0 0 100 ${Math.max(1, items.length) * rowH}`, preserveAspectRatio: 'none',
    role: 'img', 'aria-label': items.map((i) => i.label + ': ' + unit(i.value)).join(', ') });
  items.forEach((it, i) => {
    chart.append(svg('rect', { x: 0, y: i * rowH + 4, height: rowH - 8, width: Math.max(0.5, (it.value / max) * 100), rx: 1.5, class: 'bar-fill' }));
  });
  const labels = el('div', { class: 'bar-labels' }, items.map((it) => el('div', { class: 'bar-label' },
    el('span', {}, it.label), el('span', { class: 'num' }, unit(it.value)))));
  // The row count goes through the CSSOM: a style attribute is inline
  // style, which the pages' Content-Security-Policy refuses.
  const box = el('div', { class: 'barchart' }, labels, chart);
  box.style.setProperty('--rows', String(items.length));
  return box;
}

/** Vertical columns over a time axis (errors per hour): values with labels. */
export function columns(values, labels) {
  const w = 100 / Math.max(1, values.length);
  const max = Math.max(1, ...values);
  const chart = svg('svg', { class: 'chart columns', viewBox: '0 0 100 40', preserveAspectRatio: 'none', role: 'img',
    'aria-label': values.map((v, i) => (labels[i] || '') + ': ' + v).join(', ') });
  values.forEach((v, i) => {
    const h = (v / max) * 38;
    const r = svg('rect', { x: i * w + w * 0.1, y: 40 - h, width: w * 0.8, height: Math.max(h, v ? 0.8 : 0), class: 'bar-fill' });
    r.append(svg('title', {}, (labels[i] || '') + ': ' + v));
    chart.append(r);
  });
  return el('div', { class: 'columns-wrap' }, chart,
    el('div', { class: 'axis note' }, el('span', {}, labels[0] || ''), el('span', {}, labels[labels.length - 1] || '')));
}

/**
 * The library's live events (GET /api/events), read with the header over
 * fetch (an EventSource cannot send one, and the panel never puts the
 * token in a URL). Reconnects after a dropped stream; stop() ends it.
 */
export function liveEvents(onEvent) {
  const ctl = new AbortController();
  let wait = 1000;
  (async function loop() {
    while (!ctl.signal.aborted) {
      try {
        const r = await fetch('/api/events', { headers: { Authorization: 'Bearer ' + token() }, signal: ctl.signal });
        if (!r.ok || !r.body) throw new Error('events ' + r.status);
        wait = 1000;
        const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += value;
          let cut;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
            if (data) { try { onEvent(JSON.parse(data)); } catch { /* a malformed event is skipped */ } }
          }
        }
      } catch (e) {
        if (ctl.signal.aborted) return;
      }
      await new Promise((res) => setTimeout(res, wait));
      wait = Math.min(wait * 2, 15000);
    }
  })();
  return { stop: () => ctl.abort() };
}

/** GET with a query built from an object (empty values left out). */
export function get(path, query = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== '' && v !== undefined && v !== null) q.set(k, String(v));
  const s = q.toString();
  return api(s ? path + '?' + s : path);
}

/** A labelled form control. */
export const field = (labelKey, control) => el('label', { class: 'field' }, el('span', { dataset: { i18n: labelKey } }, t(labelKey)), control);

/** The label of an entry's field (field.* of strings-admin.js), else its name. */
export const fieldLabel = (name) => (has('field.' + name) ? t('field.' + name) : name);

// How each torrent state (API.md §5) looks as a chip.
const torrentKind = {
  Downloading: 'ok', Seeding: 'ok', Completed: 'ok', Stalled: 'warn', Paused: 'muted', Queued: 'muted',
  Checking: 'warn', Moving: 'warn', Metadata: 'warn', MissingFiles: 'err', Error: 'err',
};

/**
 * A torrent's state as a chip in the page's language (the client's own
 * word as its tooltip): the Overview and the Torrents tab show the same.
 */
export function torrentStateChip(x) {
  const c = chip(has('tstate.' + x.state) ? t('tstate.' + x.state) : x.state || '—', torrentKind[x.state] || 'muted');
  if (x.client_state) c.title = x.client_state;
  c.dataset.state = x.state || '';
  return c;
}

/** Seconds left as "2 d 3 h", "1 h 5 min", "4 min 10 s" in the page's language. */
export function formatETA(s) {
  if (s === null || s === undefined || s < 0) return '—';
  const u = (k, n) => t('unit.' + k, { n: formatNumber(n) });
  if (s >= 86400) return u('d', Math.floor(s / 86400)) + ' ' + u('h', Math.floor((s % 86400) / 3600));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? u('h', h) + ' ' + u('m', m) : u('m', m) + ' ' + u('s', Math.floor(s % 60));
}

/** A status chip: kind ok, warn, err or muted. */
export const chip = (text, kind = 'muted') => el('span', { class: 'state ' + kind }, text);
