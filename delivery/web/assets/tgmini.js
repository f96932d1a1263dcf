// /tgmini: the Telegram Mini App. In Telegram (telegram.js finds the host)
// it signs in with the launch's init_data (POST /api/auth/telegram) and
// takes Telegram's colours; a Telegram account not linked yet gets the
// way to link it: sign in with e-mail and password here, and this
// Telegram account is linked to that account (POST /api/auth/telegram/link
// with the init_data). In a plain browser it is one more page: the home
// page's sign-in, then the same views. The views are the remote of the
// account's room, the library (a pick plays on the room's player) and the
// assistant; Telegram's BackButton goes back to the view before.
import { api, me, token, keepToken, readable, signIn, onUnauthorized } from './api.js';
import { t, applyI18n, currentLang, setLang, onLangChange } from './i18n.js';
import { initTheme } from './theme.js';
import { toast, entryTitle } from './ui.js';
import { createLibrary } from './library.js';
import { telegram } from './telegram.js';
import { createRemote } from './remote-core.js';
import { createChat } from './tg-chat.js';

const $ = (id) => document.getElementById(id);
const quiet = { signIn: false };
const views = ['wait', 'link', 'remote', 'library', 'chat'];
const host = telegram();
let current = 'wait';
const trail = []; // the views before this one, for the BackButton

/** Shows view name; back is true when going back (nothing is remembered). */
function show(name, back = false) {
  if (name === current) return;
  if (!back && ['remote', 'library', 'chat'].includes(current)) trail.push(current);
  current = name;
  for (const v of views) $('view-' + v).hidden = v !== name;
  for (const b of $('tabs').querySelectorAll('button')) b.setAttribute('aria-selected', String(b.dataset.view === name));
  if (host) host.backButton(trail.length > 0, goBack);
  scrollTo({ top: 0 });
}

function goBack() {
  const prev = trail.pop();
  if (prev) show(prev, true);
}

function wireLanguage() {
  const lang = $('lang');
  const label = () => { lang.textContent = currentLang() === 'ru' ? 'EN' : 'RU'; };
  label();
  lang.addEventListener('click', () => setLang(currentLang() === 'ru' ? 'en' : 'ru'));
  onLangChange(label);
}

/** Opens the views for the signed-in account. */
function open(user) {
  $('tabs').hidden = false;
  for (const b of $('tabs').querySelectorAll('button')) b.addEventListener('click', () => show(b.dataset.view));
  const room = localStorage.getItem('mediateka_room') || user.email;
  const remote = createRemote();
  remote.join(room);
  createLibrary($('library'), {
    onPick: (e) => { remote.play('media:' + e.id); toast(t('tg.played', { title: entryTitle(e) }), 'info'); show('remote'); },
  });
  createChat();
  show('remote');
}

/** Links this Telegram account to the signed-in one and opens the views. */
async function linkAndOpen() {
  const user = await api('/api/auth/telegram/link', { ...quiet, method: 'POST', body: { init_data: host.initData } });
  toast(t('tg.linked', { email: user.email }), 'info');
  open(user);
}

/** The Telegram account is not linked: offer the ways to link it. */
async function offerLink() {
  show('link');
  const fail = (e) => { $('link-err').textContent = readable(e); };
  if (token()) {
    try {
      const user = await me(quiet);
      const b = $('link-as');
      b.textContent = t('tg.link.as', { email: user.email });
      b.hidden = false;
      b.addEventListener('click', () => linkAndOpen().catch(fail));
    } catch { /* a stale token: the form is there */ }
  }
  $('link-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    $('link-err').textContent = '';
    try {
      const body = await api('/api/auth/login', { ...quiet, method: 'POST', body: { email: $('link-email').value, password: $('link-password').value } });
      keepToken(body.access_token);
      await linkAndOpen();
    } catch (err) { fail(err); }
  });
}

// again is the sign-in with init_data under way after a 401, shared by
// the calls that met one together.
let again = null;

/**
 * The 401 handler inside Telegram: the session ended (expired or
 * revoked), so sign in again with the launch's init_data and stay here —
 * the home page's sign-in would lose Telegram's launch parameters. True
 * when signed in again; otherwise the reason is shown.
 */
function signInAgain() {
  if (!again) {
    again = api('/api/auth/telegram', { ...quiet, method: 'POST', body: { init_data: host.initData } })
      .then((body) => { keepToken(body.access_token); return true; })
      .catch((e) => { $('wait-text').textContent = readable(e); show('wait'); return false; })
      .finally(() => { again = null; });
  }
  return again;
}

async function start() {
  if (host) host.start(); else initTheme();
  // Telegram's language until the person picks one here.
  if (host && !localStorage.getItem('mediateka_lang') && host.lang) setLang(String(host.lang).toLowerCase().startsWith('ru') ? 'ru' : 'en');
  applyI18n();
  wireLanguage();
  if (!host) {
    if (!token()) return signIn();
    return open(await me());
  }
  onUnauthorized(signInAgain);
  try {
    const body = await api('/api/auth/telegram', { ...quiet, method: 'POST', body: { init_data: host.initData } });
    keepToken(body.access_token);
    open(body.user);
  } catch (e) {
    if (e.code === 'telegram_not_linked') return offerLink();
    $('wait-text').textContent = readable(e);
  }
}

start();
