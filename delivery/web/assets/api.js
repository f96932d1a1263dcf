// The API client every page uses. The session token lives in localStorage
// under mediateka_token (the home page puts it there at sign-in) and goes
// out only as an Authorization header: never in a URL a page builds, never
// in an <img> or <video> address. An error body (API.md §0) becomes an
// ApiError whose readable text is in the page's language; a 401 sends the
// person to sign in on the home page, which brings them back, unless the
// page set its own way to sign in again (onUnauthorized: the Mini App
// signs in with Telegram's init_data in place).
import { t, has } from './i18n.js';

const KEY = 'mediateka_token';

/** The stored session token, or ''. */
export const token = () => localStorage.getItem(KEY) || '';

/** Keeps a token the API itself returned at sign-in (never one read from a link). */
export const keepToken = (tok) => localStorage.setItem(KEY, tok);

/** Forgets the token: signed out. */
export const forgetToken = () => localStorage.removeItem(KEY);

/** An answer of status >= 400, or the server out of reach (status 0, code "network"). */
export class ApiError extends Error {
  constructor(status, code, message, fields) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.fields = fields || null;
  }
}

/**
 * Text for people from an error code and the server's message: the page's
 * own wording when it has one for the code, else the server's message.
 */
export function describe(code, message) {
  if (code && has('err.' + code)) return t('err.' + code);
  return message || code || t('err.unknown');
}

/** Readable text for anything a call threw. */
export function readable(err) {
  if (err instanceof ApiError) {
    const fields = err.fields ? Object.entries(err.fields).map(([k, v]) => k + ': ' + v).join('; ') : '';
    const text = describe(err.code, err.message);
    return fields && err.code === 'invalid_input' ? text + ' (' + fields + ')' : text;
  }
  return (err && err.message) || String(err);
}

/** Forgets the token and goes to the home page's sign-in, to come back here. */
export function signIn() {
  forgetToken();
  location.assign('/?next=' + encodeURIComponent(location.pathname + location.search));
}

// What a 401 does: signIn (leave for the home page), or the page's own.
let unauthorizedHandler = signIn;

/**
 * Sets what a 401 does instead of signIn (null: signIn again). fn may
 * sign in again without leaving the page and answer true (or a Promise of
 * true): the call that met the 401 is then made once more with the new
 * token. Anything else and the call fails with the 401.
 */
export function onUnauthorized(fn) { unauthorizedHandler = fn || signIn; }

/** Runs the 401 handler; true when the person is signed in again in place. */
export async function unauthorized() { return (await unauthorizedHandler()) === true; }

/**
 * Calls the API: JSON in (body), JSON out (null for 204). A 401 runs the
 * 401 handler (onUnauthorized; by default it signs the person out and
 * leaves for the sign-in page). Options: method, body,
 * signal, keepalive (a last report as the page goes away), blob (the
 * answer as a Blob), signIn: false (a 401 is the caller's to handle: the
 * sign-in page itself), total: true (a list's page and its X-Total-Count,
 * as {items, total}), response: true (the body with the answer's headers
 * and status, as {body, headers, status}: a header such as
 * X-Failed-Indexers is part of the answer).
 */
export async function api(path, opts = {}) {
  const r = await send(path, opts);
  if (opts.response) return { body: await bodyOf(r, opts), headers: r.headers, status: r.status };
  if (opts.total) return { items: await r.json(), total: Number(r.headers.get('X-Total-Count')) || 0 };
  return bodyOf(r, opts);
}

// bodyOf reads a successful answer: a Blob when asked, null for no
// content, else JSON.
function bodyOf(r, opts) {
  if (opts.blob) return r.blob();
  if (r.status === 204 || r.status === 202 && r.headers.get('Content-Length') === '0') return null;
  return r.json();
}

/**
 * The spoken text of an entry's field (GET /api/tts/stream-audio, API.md
 * §10): the Response, its body still arriving sentence by sentence, in
 * the server's default format (mp3 with ffmpeg, else wav: the caller reads
 * Content-Type). The token goes in the header, not the address; aborting
 * signal ends the request, and the server then stops its synthesis.
 * Errors as api().
 */
export const speech = (mediaId, field, { signal } = {}) =>
  send('/api/tts/stream-audio?' + new URLSearchParams({ media_id: String(mediaId), field }), { signal });

// send makes the request of api() and answers the Response once its status
// is a success; an error body becomes an ApiError. A 401 runs the 401
// handler, and when that signed the person in again the request is made
// once more.
async function send(path, opts) {
  let r = await request(path, opts);
  if (r.status === 401 && opts.signIn !== false && await unauthorized()) r = await request(path, opts);
  if (!r.ok) throw await failure(r);
  return r;
}

// request makes one request with the token there is now.
async function request(path, opts) {
  const headers = {};
  if (token()) headers.Authorization = 'Bearer ' + token();
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  let r;
  try {
    r = await fetch(path, { method: opts.method || 'GET', headers, signal: opts.signal, keepalive: !!opts.keepalive,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, 'network', t('err.network'));
  }
  return r;
}

async function failure(r) {
  const body = await r.json().catch(() => null);
  const e = (body && body.error) || {};
  return new ApiError(r.status, e.code || 'http_' + r.status, e.message || r.statusText, e.fields);
}

/** The signed-in account (GET /api/auth/me); opts as for api(). */
export const me = (opts) => api('/api/auth/me', opts);

// Thumbnails are fetched with the header and shown as blob: URLs. They are
// made by ffmpeg on first request, so only a few are asked for at once.
// The last `kept` are remembered (null when an entry has none), the one
// used longest ago is forgotten first and its blob: URL revoked, so a long
// evening of browsing does not keep every picture in memory. An <img>
// that already shows a revoked URL keeps showing it.
const kept = 200;
const thumbs = new Map(); // id → Promise of a blob: URL or null, oldest use first
const fetched = new Set(); // ids whose fetch has finished: only these may be evicted
const waiting = [];
let running = 0;
let noRoute = false; // the server has no thumbnail route: stop asking
const parallel = 3;

/** A blob: URL of the thumbnail of media id, or null when it has none. */
export function thumbnail(id) {
  let p = thumbs.get(id);
  if (p) thumbs.delete(id); // used now: the newest again
  else {
    p = new Promise((resolve) => { waiting.push({ id, resolve }); pump(); })
      .then((u) => { fetched.add(id); return u; });
  }
  thumbs.set(id, p);
  for (const [old, url] of thumbs) {
    if (thumbs.size <= kept) break;
    // A fetch still under way has someone waiting for its URL: revoking
    // it when it lands would hand them a dead link.
    if (!fetched.has(old)) continue;
    thumbs.delete(old);
    fetched.delete(old);
    url.then((u) => { if (u) URL.revokeObjectURL(u); });
  }
  return p;
}

function pump() {
  while (running < parallel && waiting.length) {
    const { id, resolve } = waiting.shift();
    if (noRoute) { resolve(null); continue; }
    running++;
    api('/api/media/' + id + '/thumbnail', { blob: true })
      .then((b) => resolve(b.type.startsWith('image/') ? URL.createObjectURL(b) : null),
        (e) => { noRoute = noRoute || e.code === 'not_found'; resolve(null); })
      .finally(() => { running--; pump(); });
  }
}
