// The home page: sign-in with e-mail and password or Google, and links to
// the player and the remote. A Google sign-in lands here as /#code=<one-time
// code>: the page trades it for a token through the API. The only tokens
// ever stored are those the API itself returned to this page (never one
// read from a link). It uses the pages' API client, with its 401s left to
// this page (here is where a person signs in).
import { api, me, token, keepToken, forgetToken, readable } from './api.js';

const $ = (id) => document.getElementById(id);
const quiet = { signIn: false };

function show(user) {
  $('who').textContent = user ? (user.name || user.email) + ' (' + user.role + ')' : '';
  $('login').hidden = !!user;
  $('links').hidden = !user;
}

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
  if (/^\/(player|remote|tgmini)(\?[^#]*)?$/.test(next)) location.replace(next);
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
