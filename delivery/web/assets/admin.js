// The admin panel (/admin): a tab bar over modules loaded when first
// opened (admin-<tab>.js), each drawing into #panel. A signed-in account
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
let current = null; // {name, cleanup}
let user = null;

/** Subscribes fn to library events until the returned function is called. */
function onEvent(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

async function open(name) {
  if (!tabs.includes(name)) name = 'overview';
  if (current) { try { current.cleanup?.(); } catch (e) { showError(e); } }
  current = { name };
  for (const a of document.querySelectorAll('#tabs a')) {
    if (a.dataset.tab === name) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  panel.replaceChildren(el('p', { class: 'note' }, t('lib.loading')));
  panel.dataset.tab = name;
  const mine = current;
  try {
    const mod = await import('./admin-' + name + '.js');
    if (current !== mine) return; // another tab was picked meanwhile
    panel.replaceChildren();
    mine.cleanup = await mod.default(panel, { user, onEvent });
  } catch (e) {
    if (current === mine) panel.replaceChildren(el('p', { class: 'note error' }, t('admin.tabFailed')));
    showError(e);
  }
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
  liveEvents((ev) => { for (const fn of listeners) { try { fn(ev); } catch (e) { showError(e); } } });
  addEventListener('hashchange', route);
  // A tab draws its own text: after a language switch it is drawn again.
  onLangChange(() => { if (current) open(current.name); });
  route();
}

main();
