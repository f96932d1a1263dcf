// A room connection (API.md §6) that keeps itself up: after a drop it
// reconnects with exponential backoff (0.5 s doubling to 30 s), each wait
// drawn at random between half and all of that ("equal jitter": never
// sooner than half, so a flapping server is not hammered, yet spread, so a
// restarted server is not hit by every page at the same instant). A join
// the server refuses (someone else's e-mail room, a bad room name) is not
// retried: a browser learns nothing from a refused upgrade, so the status
// route, which applies the same rules, is asked why. A close with 1008
// (the token was revoked) is final too. There is never more than one
// socket: opening one closes the one before.
import { api, token, unauthorized } from './api.js';

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
  try {
    // refused() alone decides what a refusal does (a 401 signs in once).
    await api('/api/control/status?' + new URLSearchParams({ room }), { signIn: false });
    return '';
  } catch (e) {
    if (!e.status || e.status >= 500) return '';
    // The status route speaks of requests; a room page speaks of rooms.
    return { invalid_input: 'invalid_room', forbidden: 'room_forbidden' }[e.code] || e.code;
  }
}

/** The wait before reconnect attempt n (0, 1, …), in ms. */
function backoff(n) {
  const ceiling = Math.min(maxDelay, firstDelay * 2 ** n);
  return Math.round(ceiling / 2 + Math.random() * ceiling / 2);
}

/** One room membership that reconnects until close(); see connectRoom. */
class RoomConnection {
  constructor({ role, room, onMessage, onState, onOpen }) {
    Object.assign(this, { role, room, onMessage, onState, onOpen });
    this.ws = null;
    this.attempt = 0;
    this.timer = 0;
    this.done = false;
    // Back on the network, or back to the page: try at once, not at the
    // end of a long backoff.
    this.retryNow = () => { if (!this.done && this.ws && this.ws.readyState === WebSocket.CLOSED) { this.attempt = 0; this.open(); } };
    this.onVisible = () => { if (!document.hidden) this.retryNow(); };
    addEventListener('online', this.retryNow);
    document.addEventListener('visibilitychange', this.onVisible);
    this.open();
  }

  open() {
    clearTimeout(this.timer);
    if (this.ws && this.ws.readyState < WebSocket.CLOSING) this.ws.close(1000);
    this.onState({ state: 'connecting' });
    const sock = new WebSocket(address(this.role, this.room));
    this.ws = sock;
    let opened = false;
    sock.onopen = () => {
      opened = true;
      this.attempt = 0;
      this.onState({ state: 'open' });
      if (this.onOpen) this.onOpen();
    };
    sock.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (m && typeof m === 'object') this.onMessage(m);
    };
    sock.onclose = (e) => { if (this.ws === sock && !this.done) this.closed(sock, e, opened); };
  }

  // sock closed: find out whether to try again, and when. While the
  // status route is asked, a retryNow may already have opened another
  // socket: then that one is the connection and this ends here.
  async closed(sock, e, opened) {
    if (e.code === 1008) return this.refused(e.reason === 'forbidden' ? 'room_forbidden' : e.reason || 'room_forbidden');
    if (!opened) {
      const code = await refusal(this.room);
      if (this.done || this.ws !== sock) return;
      if (code) return this.refused(code);
    }
    const delay = backoff(this.attempt++);
    this.onState({ state: 'waiting', retryIn: delay });
    this.timer = setTimeout(() => this.open(), delay);
  }

  // refused ends the membership, but a session that ended goes to the
  // 401 handler first: signed in again in place (the Mini App), the
  // connection starts over with the new token.
  async refused(code) {
    this.done = true;
    if (code === 'unauthorized' || code === 'token_expired') {
      if (await unauthorized() && !this.closedByCaller) {
        this.done = false;
        this.attempt = 0;
        this.open();
      }
      return;
    }
    this.onState({ state: 'refused', code });
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.done = true;
    this.closedByCaller = true;
    clearTimeout(this.timer);
    removeEventListener('online', this.retryNow);
    document.removeEventListener('visibilitychange', this.onVisible);
    if (this.ws) this.ws.close(1000);
  }
}

/**
 * Joins room as role and keeps the connection up until close(). onMessage
 * gets every message as an object; onState gets {state: 'connecting' |
 * 'open' | 'waiting' (retryIn ms) | 'refused' (code)}; onOpen runs on
 * every (re)connection, where a player repeats its reports. Returns
 * {send(msg): false when not connected, close(): leave for good}.
 */
export function connectRoom(opts) {
  const c = new RoomConnection(opts);
  return { send: (msg) => c.send(msg), close: () => c.close() };
}
