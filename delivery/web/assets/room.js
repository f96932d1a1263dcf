// A room connection (API.md §6) that keeps itself up: after a drop it
// reconnects with exponential backoff (0.5 s doubling to 30 s) and full
// jitter, so a restarted server is not hit by every page at the same
// instant. A join the server refuses (someone else's e-mail room, a bad
// room name) is not retried: a browser learns nothing from a refused
// upgrade, so the status route, which applies the same rules, is asked
// why. A close with 1008 (the token was revoked) is final too.
import { token, signIn } from './api.js';

const firstDelay = 500;
const maxDelay = 30000;

/** The WebSocket address of role in room, with the session token. */
function address(role, room) {
  const q = new URLSearchParams({ role, room });
  if (token()) q.set('token', token());
  return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/control/ws?' + q;
}

/**
 * Why the server refuses room, as an error code, or '' when it would
 * admit it (the drop was something passing: retry).
 */
async function refusal(room) {
  const headers = token() ? { Authorization: 'Bearer ' + token() } : {};
  try {
    const r = await fetch('/api/control/status?' + new URLSearchParams({ room }), { headers });
    if (r.ok || r.status >= 500) return '';
    const body = await r.json().catch(() => null);
    const code = (body && body.error && body.error.code) || 'http_' + r.status;
    // The status route speaks of requests; a room page speaks of rooms.
    return { invalid_input: 'invalid_room', forbidden: 'room_forbidden' }[code] || code;
  } catch {
    return '';
  }
}

/**
 * Joins room as role and keeps the connection up until close(). onMessage
 * gets every message as an object; onState gets {state: 'connecting' |
 * 'open' | 'waiting' (retryIn ms) | 'refused' (code)}; onOpen runs on
 * every (re)connection, where a player repeats its reports.
 */
export function connectRoom({ role, room, onMessage, onState, onOpen }) {
  let ws = null;
  let attempt = 0;
  let timer = 0;
  let done = false;

  function open() {
    clearTimeout(timer);
    onState({ state: 'connecting' });
    const sock = new WebSocket(address(role, room));
    ws = sock;
    let opened = false;
    sock.onopen = () => { opened = true; attempt = 0; onState({ state: 'open' }); if (onOpen) onOpen(); };
    sock.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (m && typeof m === 'object') onMessage(m);
    };
    sock.onclose = (e) => { if (ws === sock && !done) closed(e, opened); };
  }

  async function closed(e, opened) {
    if (e.code === 1008) return refused(e.reason === 'forbidden' ? 'room_forbidden' : e.reason || 'room_forbidden');
    if (!opened) {
      const code = await refusal(room);
      if (done) return;
      if (code) return refused(code);
    }
    const ceiling = Math.min(maxDelay, firstDelay * 2 ** attempt++);
    const delay = Math.round(ceiling / 2 + Math.random() * ceiling / 2);
    onState({ state: 'waiting', retryIn: delay });
    timer = setTimeout(open, delay);
  }

  function refused(code) {
    done = true;
    if (code === 'unauthorized' || code === 'token_expired') return signIn();
    onState({ state: 'refused', code });
  }

  // Back on the network, or back to the page: try at once, not at the end
  // of a long backoff.
  const retryNow = () => { if (!done && ws && ws.readyState === WebSocket.CLOSED) { attempt = 0; open(); } };
  const onVisible = () => { if (!document.hidden) retryNow(); };
  addEventListener('online', retryNow);
  document.addEventListener('visibilitychange', onVisible);

  open();
  return {
    /** Sends msg when connected; false when it could not be sent. */
    send(msg) {
      if (!ws || ws.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(msg));
      return true;
    },
    /** Leaves the room for good. */
    close() {
      done = true;
      clearTimeout(timer);
      removeEventListener('online', retryNow);
      document.removeEventListener('visibilitychange', onVisible);
      if (ws) ws.close(1000);
    },
  };
}
