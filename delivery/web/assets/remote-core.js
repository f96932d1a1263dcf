// The remote's core, one copy for /remote and the Mini App's remote view:
// it builds the transport (seek bar, time, play/pause, ±10 s, stop,
// volume) into the page's <section class="transport">, joins a room as a
// remote and shows what the player reports — presence, state, position
// and duration (moved on by the clock between reports while playing, so
// the bar does not jump once a second), what plays and its thumbnail —
// and sends play / pause / stop / seek / volume. A command the room
// refuses comes back as an error event and is shown. What only one page
// has (the playlist, the read-aloud button) hangs on the hooks.
import { thumbnail, describe } from './api.js';
import { t, applyI18n, onLangChange } from './i18n.js';
import { connectionView, toast, seekBar } from './ui.js';
import { connectRoom } from './room.js';

const $ = (id) => document.getElementById(id);

// Static markup with fixed ids (the pages' CSS and tests know them); the
// labels come from i18n like any other marked element.
const TRANSPORT = `
  <input id="seek" class="seek" type="range" min="0" max="0" step="1" value="0" data-i18n-title="ctl.seek">
  <p id="time" class="time">0:00 / 0:00</p>
  <div class="buttons">
    <button id="back10" type="button" class="icon" data-i18n-title="ctl.back10"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M11 6L4 12l7 6zM20 6l-7 6 7 6z"/></svg></button>
    <button id="toggle" type="button" class="icon big" data-state="paused" data-i18n-title="ctl.toggle">
      <svg class="when-paused" viewBox="0 0 24 24" aria-hidden="true"><path d="M7 4l13 8-13 8z"/></svg>
      <svg class="when-playing" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 4h4v16H6zM14 4h4v16h-4z"/></svg>
    </button>
    <button id="fwd10" type="button" class="icon" data-i18n-title="ctl.fwd10"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M13 6l7 6-7 6zM4 6l7 6-7 6z"/></svg></button>
    <button id="stop" type="button" class="icon" data-i18n-title="ctl.stop"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6h12v12H6z"/></svg></button>
  </div>
  <label class="volume-row"><span data-i18n="ctl.volume">Громкость</span>
    <input id="volume" class="volume" type="range" min="0" max="100" step="1" value="100">
    <output id="volume-value">100</output>
  </label>`;

const idle = () => ({ state: 'idle', position: 0, duration: 0 });

/** What a metadata report is called: its title, else its file's name. */
function metaTitle(m) {
  if (!m) return '';
  return m.title || String(m.file || '').split(/[\\/]/).pop();
}

/**
 * Builds the transport and wires the remote. Hooks, all optional:
 * onStatus(next, prev) before a status is drawn, onMeta(meta) after what
 * plays is drawn, onMessage(m) for the events the core does not handle
 * (playlist_update), beforeSend(msg) before a command goes out, onReset()
 * when another room is joined, onDraw() after everything is drawn again
 * (a language switch). Returns {join(room), send(msg), meta(), play(file)}.
 */
export function createRemote(hooks = {}) {
  const box = document.querySelector('section.transport');
  box.innerHTML = TRANSPORT;
  applyI18n(box);

  const showConn = connectionView();
  let conn = null;
  let players = 0;
  let status = idle();
  let statusAt = 0; // performance.now() of the last status
  let meta = null;
  let volumeAt = -Infinity; // when the person last moved the volume: reports do not fight the thumb

  // The player's position now: its last report moved on by the time since.
  const position = () => {
    let p = status.position || 0;
    if (status.state === 'playing') p += (performance.now() - statusAt) / 1000;
    return status.duration > 0 ? Math.min(p, status.duration) : p;
  };

  /** Sends a command; says so when the room is not reachable right now. */
  function send(msg) {
    if (hooks.beforeSend) hooks.beforeSend(msg);
    if (!conn || !conn.send(msg)) toast(t('err.offline'));
  }

  const drawTime = seekBar($('seek'), $('time'), {
    position, duration: () => status.duration || 0,
    onSeek(to) {
      send({ event: 'seek', position: to });
      status = { ...status, position: to }; // shown at once; the player's next report confirms it
      statusAt = performance.now();
    },
  });

  function drawPresence() {
    const p = $('presence');
    p.dataset.players = String(players);
    p.textContent = players > 0 ? t('presence.player', { n: players }) : t('presence.none');
  }

  function drawStatus() {
    $('toggle').dataset.state = status.state === 'playing' ? 'playing' : 'paused';
    $('now-state').textContent = t('state.' + status.state);
    drawTime();
  }

  function drawMeta() {
    const img = $('now-img');
    img.hidden = true;
    img.removeAttribute('src');
    const title = metaTitle(meta);
    $('now-title').textContent = meta ? title + (meta.year ? ' (' + meta.year + ')' : '') : t('remote.nothing');
    document.querySelector('#now-thumb .letter').textContent = title.slice(0, 1);
    // Only this page's own fetch of the entry's thumbnail (a blob: URL),
    // never an address from the room: in a shared room anyone may be the
    // player, and an address of theirs would tell them who looks.
    const shown = meta;
    if (meta && meta.media_id) thumbnail(meta.media_id).then((u) => { if (u && meta === shown) { img.src = u; img.hidden = false; } });
    if (hooks.onMeta) hooks.onMeta(meta);
  }

  function drawAll() {
    drawPresence(); drawStatus(); drawMeta();
    if (hooks.onDraw) hooks.onDraw();
  }

  function onMessage(m) {
    switch (m.event) {
      case 'presence': players = m.players; drawPresence(); break;
      case 'status_update':
        if (hooks.onStatus) hooks.onStatus(m, status);
        status = m;
        statusAt = performance.now();
        if (m.volume != null && performance.now() - volumeAt > 1500) { $('volume').value = String(m.volume); $('volume-value').value = String(m.volume); }
        drawStatus();
        break;
      case 'metadata_update': meta = m; drawMeta(); break;
      case 'error': toast(describe(m.code, m.message)); break;
      default: if (hooks.onMessage) hooks.onMessage(m);
    }
  }

  /** Joins room (leaving the one before) with a clean slate. */
  function join(room) {
    if (conn) conn.close();
    players = 0;
    status = idle();
    meta = null;
    if (hooks.onReset) hooks.onReset();
    drawAll();
    conn = connectRoom({ role: 'remote', room, onMessage, onState: showConn });
  }

  $('toggle').addEventListener('click', () => {
    if (status.state === 'playing') send({ event: 'pause' });
    else if (status.state === 'paused') send({ event: 'play' });
    else if (meta && (meta.file || meta.media_id)) send({ event: 'play', file: meta.file || 'media:' + meta.media_id });
    else toast(t('remote.pickFirst'), 'info');
  });
  $('stop').addEventListener('click', () => send({ event: 'stop' }));
  const seekBy = (seconds) => {
    const to = Math.max(0, position() + seconds);
    send({ event: 'seek', position: status.duration > 0 ? Math.min(to, status.duration) : to });
  };
  $('back10').addEventListener('click', () => seekBy(-10));
  $('fwd10').addEventListener('click', () => seekBy(10));
  // The volume goes out as the thumb moves, at most every 150 ms, and once
  // more where it stops.
  let volumeTimer = 0;
  $('volume').addEventListener('input', () => {
    volumeAt = performance.now();
    $('volume-value').value = $('volume').value;
    if (volumeTimer) return;
    volumeTimer = setTimeout(() => { volumeTimer = 0; send({ event: 'volume', level: Number($('volume').value) }); }, 150);
  });
  setInterval(drawTime, 250);
  onLangChange(drawAll);

  return { join, send, meta: () => meta, play: (file) => send({ event: 'play', file }) };
}
