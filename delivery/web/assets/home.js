// The home page: sign-in with e-mail and password or Google, links to the
// player, the remote and (for an administrator) the admin panel, and the
// code that links the account to the Telegram bot (/link <code>). A Google
// sign-in lands here as /#code=<one-time code>: the page trades it for a
// token through the API. The only tokens ever stored are those the API
// itself returned to this page (never one read from a link). It uses the
// pages' API client, with its 401s left to this page (here is where a
// person signs in).
import { api, me, token, keepToken, forgetToken, readable } from './api.js';

const $ = (id) => document.getElementById(id);
const quiet = { signIn: false };

function show(user) {
  $('who').textContent = user ? (user.name || user.email) + ' (' + user.role + ')' : '';
  $('login').hidden = !!user;
  $('links').hidden = !user;
  $('admin').hidden = !(user && user.is_admin);
  $('tg').hidden = !user;
  $('tg-code').textContent = '';
  $('tg-state').textContent = !user ? '' : user.telegram_id
    ? 'Привязан к Telegram (id ' + user.telegram_id + '). Новый код заменит привязку. / Linked to Telegram (id ' + user.telegram_id + '). A new code replaces the link.'
    : 'Не привязан: получите код и отправьте его боту. / Not linked: get a code and send it to the bot.';
}

// The link code (API.md §1): single use, valid for minutes; the person sends
// "/link <code>" to the bot from their Telegram.
$('tg-link').addEventListener('click', async () => {
  const out = $('tg-code');
  out.classList.remove('err');
  try {
    const { code, expires_at: until } = await api('/api/auth/telegram/link', { ...quiet, method: 'POST', body: {} });
    const at = new Date(until).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    out.replaceChildren('Отправьте боту / Send the bot: ', Object.assign(document.createElement('code'), { textContent: '/link ' + code }),
      ' (до / until ' + at + ')');
  } catch (e) {
    out.textContent = readable(e);
    out.classList.add('err');
  }
});

// A page that sent the person here to sign in (?next=/player) gets them
// back; only the server's own pages, never another site.
const next = new URLSearchParams(location.search).get('next') || '';

/** Signs in with what a sign-in call answers; false when it failed (shown). */
async function signedIn(call) {
  let body;
  try {
    body = await call;
  } catch (e) {
    $('err').textContent = readable(e);
    return false;
  }
  if (!body || !body.access_token) { $('err').textContent = 'Вход не удался / Sign-in failed'; return false; }
  keepToken(body.access_token);
  if (/^\/(player|remote|tgmini|admin)(\?[^#]*)?$/.test(next)) location.replace(next);
  else show(body.user);
  return true;
}

/** Shows the account a kept token belongs to, or the sign-in form. */
async function restore() {
  if (!token()) return show(null);
  try { show(await me(quiet)); } catch { forgetToken(); show(null); }
}

$('login').addEventListener('submit', async (e) => {
  e.preventDefault();
  $('err').textContent = '';
  await signedIn(api('/api/auth/login', { ...quiet, method: 'POST', body: { email: $('email').value, password: $('password').value } }));
});
$('logout').addEventListener('click', (e) => { e.preventDefault(); forgetToken(); show(null); });
api('/api/auth/providers', quiet).then((p) => { $('google').hidden = !p.google; }, () => {});

const code = new URLSearchParams(location.hash.slice(1)).get('code');
if (location.hash) history.replaceState(null, '', location.pathname + location.search);
if (code) {
  show(null);
  // The code is bound to this browser by an HttpOnly cookie the callback
  // set: the same-origin fetch (the client's default) sends it.
  if (!await signedIn(api('/api/auth/exchange', { ...quiet, method: 'POST', body: { code } }))) restore();
} else {
  restore();
}
