// What every page has: the header (room, language, theme), messages for
// people (toasts), times as people read them, and a small element builder
// that sets text, never HTML, so a title from the library cannot inject
// markup.
import { t, applyI18n, currentLang, setLang, onLangChange } from './i18n.js';
import { initTheme, toggleTheme } from './theme.js';
import { me, token, signIn, readable, describe } from './api.js';

const roomKey = 'mediateka_room';

/**
 * el('button', {class: 'x', onclick: f, dataset: {id: 1}}, 'text', child…):
 * attributes, properties (on* handlers, dataset, hidden…) and children
 * (strings become text nodes; null and false are skipped).
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k === 'class') node.className = v;
    else if (k in node && typeof v !== 'string') node[k] = v;
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

/** Seconds as 0:42, 12:05 or 1:02:03. */
export function formatTime(seconds) {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(s / 3600);
  const m = Math.floor(s / 60) % 60;
  const ss = String(s % 60).padStart(2, '0');
  return h ? h + ':' + String(m).padStart(2, '0') + ':' + ss : m + ':' + ss;
}

/**
 * Wires a seek bar (a range input) and its time label ("0:42 / 1:40").
 * position() and duration() say where the film is; while the person drags
 * the thumb the bar is theirs and the label shows where it would go; where
 * the drag ends, onSeek(seconds) runs. Returns draw(), to call whenever the
 * position may have moved.
 */
export function seekBar(input, label, { position, duration, onSeek }) {
  let dragging = false;
  function draw() {
    const d = duration();
    if (!dragging) {
      input.max = String(Math.max(0, Math.floor(d)));
      input.value = String(Math.floor(position()));
    }
    label.textContent = formatTime(dragging ? Number(input.value) : position()) + ' / ' + formatTime(d);
  }
  input.addEventListener('input', () => { dragging = true; draw(); });
  input.addEventListener('change', () => { dragging = false; onSeek(Number(input.value)); draw(); });
  // A drag released where it started sends no change: stop holding the bar
  // (a moment later, so a change that does come still reads the thumb).
  input.addEventListener('pointerup', () => setTimeout(() => { dragging = false; }, 300));
  return draw;
}

/** Shows text in the page's message area for a few seconds. kind: 'error' or 'info'. */
export function toast(text, kind = 'error') {
  let box = document.getElementById('toasts');
  if (!box) document.body.append(box = el('div', { id: 'toasts', role: 'status', 'aria-live': 'polite' }));
  const item = el('div', { class: 'toast ' + kind }, text);
  box.append(item);
  while (box.children.length > 3) box.firstChild.remove();
  setTimeout(() => item.remove(), kind === 'error' ? 8000 : 4000);
}

/** Shows what a call threw as a toast. */
export const showError = (err) => toast(readable(err));

/** The display title of an entry in the page's language. */
export function entryTitle(e) {
  const ru = currentLang() === 'ru';
  return (ru ? e.title_ru || e.title : e.title || e.title_orig || e.title_ru) || e.title_orig ||
    (e.path || '').split(/[\\/]/).pop() || '#' + e.id;
}

/** Wires the header's language (#lang) and theme (#theme) buttons, where the page has them. */
function wireHeader() {
  const lang = document.getElementById('lang');
  if (lang) {
    const label = () => { lang.textContent = currentLang() === 'ru' ? 'EN' : 'RU'; };
    label();
    lang.addEventListener('click', () => setLang(currentLang() === 'ru' ? 'en' : 'ru'));
    onLangChange(label);
  }
  const theme = document.getElementById('theme');
  if (theme) theme.addEventListener('click', toggleTheme);
}

/**
 * Starts a page: theme, language, header, sign-in. Resolves to {user,
 * room}: the room is ?room= of the address, else the one last chosen on
 * this device, else the account's e-mail. A page with a room field
 * (#room in #room-form) lets the person pick another: onRoom(room) then
 * runs. Without a token the person is sent to sign in and the promise
 * never resolves.
 */
export async function startPage(onRoom) {
  initTheme();
  applyI18n();
  wireHeader();
  if (!token()) { signIn(); return new Promise(() => {}); }
  const user = await account();
  const room = new URLSearchParams(location.search).get('room') || localStorage.getItem(roomKey) || user.email;
  const input = document.getElementById('room');
  if (!input || !onRoom) return { user, room };
  input.value = room;
  document.getElementById('room-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const next = input.value.trim() || user.email;
    input.value = next;
    if (next === user.email) localStorage.removeItem(roomKey); else localStorage.setItem(roomKey, next);
    const q = new URLSearchParams(location.search);
    q.delete('room');
    history.replaceState(null, '', location.pathname + (q.toString() ? '?' + q : ''));
    onRoom(next);
  });
  return { user, room };
}

/**
 * The signed-in account. A server out of reach or failing is asked again
 * every 5 s (a TV's page may be opened before the server is up); a 401
 * has already sent the person to sign in.
 */
async function account() {
  for (let told = false; ; told = true) {
    try {
      return await me();
    } catch (e) {
      if (e.status === 401) return new Promise(() => {});
      if (!told) showError(e);
      await new Promise((r) => setTimeout(r, 5000));
    }
  }
}

/**
 * Shows a room connection's state in the header's #conn: online, trying
 * again in n s, or refused with the reason.
 */
export function connectionView() {
  const node = document.getElementById('conn');
  let last = { state: 'connecting' };
  const draw = () => {
    node.dataset.state = last.state;
    node.textContent = last.state === 'open' ? t('conn.open')
      : last.state === 'waiting' ? t('conn.waiting', { s: Math.max(1, Math.round(last.retryIn / 1000)) })
        : last.state === 'refused' ? t('conn.refused', { why: describe(last.code) })
          : t('conn.connecting');
  };
  onLangChange(draw);
  return (s) => { last = s; draw(); };
}
