// The admin panel (/admin): a tab bar over modules loaded when first
// opened (admin-<tab>.js), each drawing into a node of its own in #panel
// and stopped (its AbortSignal, its cleanup) when another is picked. A signed-in account
// without the admin role sees a plain "not an administrator" page, never
// a broken panel; the server refuses its calls anyway (403). The panel
// holds one live stream of library events and hands it to the tabs.
import { t, addStrings, onLangChange, applyI18n } from './i18n.js';
import { adminStrings } from './strings-admin.js';
import { signIn } from './api.js';
import { startPage, el, showError } from './ui.js';
import { liveEvents } from './admin-kit.js';

addStrings(adminStrings);

const tabs = ['overview', 'library', 'search', 'torrents', 'plugins', 'ai', 'logs', 'speech', 'users'];
const panel = document.getElementById('panel');
const listeners = new Set();
// The tab on screen: {name, node, ctl, cleanup}. Each tab draws into a
// node of its own under #panel, so a tab left while it was still loading
// can only ever write into its own (detached) node, never under the next.
let current = null;
let user = null;

// The last library events since the panel opened, newest first, fed by
// the panel's one stream whatever tab is open: the Overview shows what
// happened while another tab was on screen. A progress event replaces its
// predecessor, so a long scan does not push everything else out.
const recent = [];
const keepEvents = 50;

function remember(ev) {
  if ((ev.event === 'scan_progress' || ev.event === 'classify_progress') && recent[0] && recent[0].event === ev.event) recent.shift();
  recent.unshift(ev);
  recent.length = Math.min(recent.length, keepEvents);
}

/** Subscribes fn to library events until the returned function is called. */
function onEvent(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function runCleanup(fn) {
  try { if (typeof fn === 'function') fn(); } catch (e) { showError(e); }
}

// leave ends the tab on screen: its signal aborts (its requests, its
// listeners), its cleanup runs (timers) and its node goes.
function leave() {
  const tab = current;
  if (!tab) return;
  current = null;
  tab.ctl.abort();
  runCleanup(tab.cleanup);
  tab.node.remove();
}

async function open(name) {
  if (!tabs.includes(name)) name = 'overview';
  leave();
  const ctl = new AbortController();
  const node = el('div', { class: 'tab-body', dataset: { tab: name } }, el('p', { class: 'note' }, t('lib.loading')));
  const mine = { name, node, ctl, cleanup: null, relabel: new Set() };
  current = mine;
  for (const a of document.querySelectorAll('#tabs a')) {
    if (a.dataset.tab === name) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  panel.replaceChildren(node);
  panel.dataset.tab = name;
  // The tab's subscriptions end with its signal, whether or not its
  // cleanup remembers them.
  const ctx = { user, signal: ctl.signal, recentEvents: () => recent, onLangChange: (fn) => mine.relabel.add(fn), onEvent: (fn) => {
    const off = onEvent(fn);
    ctl.signal.addEventListener('abort', off, { once: true });
    return off;
  } };
  try {
    const mod = await import('./admin-' + name + '.js');
    if (ctl.signal.aborted) return; // another tab was picked meanwhile
    node.replaceChildren();
    const cleanup = await mod.default(node, ctx);
    // Left while its first reads were under way: it stops at once (its
    // timers may have started) and its node is already gone.
    if (ctl.signal.aborted) { runCleanup(cleanup); node.remove(); return; }
    mine.cleanup = cleanup;
  } catch (e) {
    if (ctl.signal.aborted) return;
    node.replaceChildren(el('p', { class: 'note error' }, t('admin.tabFailed')));
    showError(e);
  }
}

// dirty says whether a text field or a box under node holds something
// other than its initial value: a form being filled in, a search typed.
function dirty(node) {
  for (const c of node.querySelectorAll('input, textarea')) {
    if (c.type === 'checkbox' || c.type === 'radio' ? c.checked !== c.defaultChecked : c.type !== 'file' && c.value !== c.defaultValue) return true;
  }
  return false;
}

// relabel follows a language switch without losing the tab's state:
// what the kit drew is marked (data-i18n) and relabelled in place, and a
// tab that asked (ctx.onLangChange) redraws its own words (its lists, its
// entry). A tab that did not ask is opened again, unless something is
// being filled in there: unsaved input outweighs labels in the old
// language until the next visit.
function relabel() {
  const tab = current;
  if (!tab) return;
  if (tab.relabel.size || dirty(tab.node)) {
    applyI18n(tab.node);
    for (const fn of tab.relabel) { try { fn(); } catch (e) { showError(e); } }
    return;
  }
  open(tab.name);
}

function route() { open(location.hash.slice(1) || 'overview'); }

async function main() {
  document.getElementById('signout').addEventListener('click', () => signIn());
  const started = await startPage();
  user = started.user;
  document.getElementById('loading').hidden = true;
  document.getElementById('who').textContent = user.email;
  if (!user.is_admin) {
    document.getElementById('not-admin').hidden = false;
    const say = () => { document.getElementById('not-admin-text').textContent = t('admin.notAdminText', { email: user.email }); };
    say();
    onLangChange(say);
    document.getElementById('other').addEventListener('click', () => signIn());
    return;
  }
  document.getElementById('tabs').hidden = false;
  applyI18n();
  liveEvents((ev) => { remember(ev); for (const fn of listeners) { try { fn(ev); } catch (e) { showError(e); } } });
  addEventListener('hashchange', route);
  onLangChange(relabel);
  route();
}

main();
