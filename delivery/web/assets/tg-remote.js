// The Mini App's remote: the room's player seen and driven from a phone,
// on the same room connection and widgets as /remote (room.js, the seek
// bar of ui.js, the markup's ids). It shows presence, what plays, its
// state and position (moved on by the clock between reports while
// playing), and sends play / pause / stop / seek / volume.
import { thumbnail, describe } from './api.js';
import { t, onLangChange } from './i18n.js';
import { connectionView, toast, seekBar } from './ui.js';
import { connectRoom } from './room.js';

const $ = (id) => document.getElementById(id);

/** Joins room as a remote and wires the remote view. Returns {play(file)}. */
export function createRemote(room) {
  let players = 0;
  let status = { state: 'idle', position: 0, duration: 0 };
  let statusAt = 0;
  let meta = null;
  let volumeAt = -Infinity;

  const position = () => {
    let p = status.position || 0;
    if (status.state === 'playing') p += (performance.now() - statusAt) / 1000;
    return status.duration > 0 ? Math.min(p, status.duration) : p;
  };
  const send = (msg) => { if (!conn.send(msg)) toast(t('err.offline')); };
  const drawTime = seekBar($('seek'), $('time'), {
    position, duration: () => status.duration || 0,
    onSeek(to) { send({ event: 'seek', position: to }); status = { ...status, position: to }; statusAt = performance.now(); },
  });

  function drawPresence() {
    $('presence').dataset.players = String(players);
    $('presence').textContent = players > 0 ? t('presence.player') : t('presence.none');
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
    $('now-title').textContent = meta ? meta.title + (meta.year ? ' (' + meta.year + ')' : '') : t('remote.nothing');
    document.querySelector('#now-thumb .letter').textContent = meta ? meta.title.slice(0, 1) : '';
    // The page's own fetch of the entry's picture, never an address from the room.
    const shown = meta;
    if (meta && meta.media_id) thumbnail(meta.media_id).then((u) => { if (u && meta === shown) { img.src = u; img.hidden = false; } });
  }

  function onMessage(m) {
    switch (m.event) {
      case 'presence': players = m.players; drawPresence(); break;
      case 'status_update':
        status = m;
        statusAt = performance.now();
        if (m.volume != null && performance.now() - volumeAt > 1500) { $('volume').value = String(m.volume); $('volume-value').value = String(m.volume); }
        drawStatus();
        break;
      case 'metadata_update': if (m.title) { meta = m; drawMeta(); } break;
      case 'error': toast(describe(m.code, m.message)); break;
    }
  }

  const conn = connectRoom({ role: 'remote', room, onMessage, onState: connectionView() });

  $('toggle').addEventListener('click', () => {
    if (status.state === 'playing') send({ event: 'pause' });
    else if (status.state === 'paused') send({ event: 'play' });
    else if (meta && (meta.file || meta.media_id)) send({ event: 'play', file: meta.file || 'media:' + meta.media_id });
    else toast(t('remote.pickFirst'), 'info');
  });
  $('stop').addEventListener('click', () => send({ event: 'stop' }));
  const seekBy = (s) => {
    const to = Math.max(0, position() + s);
    send({ event: 'seek', position: status.duration > 0 ? Math.min(to, status.duration) : to });
  };
  $('back10').addEventListener('click', () => seekBy(-10));
  $('fwd10').addEventListener('click', () => seekBy(10));
  let volumeTimer = 0;
  $('volume').addEventListener('input', () => {
    volumeAt = performance.now();
    $('volume-value').value = $('volume').value;
    if (volumeTimer) return;
    volumeTimer = setTimeout(() => { volumeTimer = 0; send({ event: 'volume', level: Number($('volume').value) }); }, 150);
  });
  setInterval(drawTime, 250);
  onLangChange(() => { drawPresence(); drawStatus(); drawMeta(); });
  drawPresence(); drawStatus(); drawMeta();
  return { play: (file) => send({ event: 'play', file }) };
}
