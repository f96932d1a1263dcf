// /remote: drives the room's player. It joins as a remote, sends play /
// pause / stop / volume / seek, and shows what the player reports: its
// state, position and duration (moved on between reports while playing, so
// the bar does not jump once a second), what plays, and its playlist. A
// command the room refuses comes back as an error event and is shown.
import { api, thumbnail, describe } from './api.js';
import { t, onLangChange } from './i18n.js';
import { startPage, connectionView, toast, el, seekBar } from './ui.js';
import { connectRoom } from './room.js';
import { createLibrary } from './library.js';
import { readAloud, stopReading } from './speech.js';

const $ = (id) => document.getElementById(id);
const showConn = connectionView();
let room = null;
let players = 0;
let status = { state: 'idle', position: 0, duration: 0 };
let statusAt = 0; // performance.now() of the last status
let meta = null;
let playlist = [];
let library = null;
let volumeAt = -Infinity; // when the person last moved the volume: reports do not fight the thumb
const entries = new Map(); // media id → Promise of its entry (for its plot), read once

function join(name) {
  if (room) room.close();
  players = 0;
  status = { state: 'idle', position: 0, duration: 0 };
  meta = null;
  playlist = [];
  drawAll();
  room = connectRoom({ role: 'remote', room: name, onMessage, onState: showConn });
}

function onMessage(m) {
  switch (m.event) {
    case 'presence': players = m.players; drawPresence(); break;
    case 'status_update':
      if (m.state === 'stopped' && status.state !== 'stopped') refreshLater();
      if (m.state === 'playing' && status.state !== 'playing') stopReading(); // the film's sound is back
      status = m;
      statusAt = performance.now();
      if (m.volume != null && performance.now() - volumeAt > 1500) { $('volume').value = String(m.volume); $('volume-value').value = String(m.volume); }
      drawStatus();
      break;
    case 'metadata_update': meta = m; drawMeta(); break;
    case 'playlist_update': playlist = Array.isArray(m.files) ? m.files : []; drawPlaylist(); break;
    case 'error': toast(describe(m.code, m.message)); break;
  }
}

/** Sends a command; says so when the room is not reachable right now. */
function send(msg) {
  if (msg.event === 'play') stopReading(); // a film to be heard instead
  if (!room || !room.send(msg)) toast(t('err.offline'));
}

// The player's position now: its last report moved on by the time since.
function position() {
  let p = status.position || 0;
  if (status.state === 'playing') p += (performance.now() - statusAt) / 1000;
  return status.duration > 0 ? Math.min(p, status.duration) : p;
}

function drawPresence() {
  const box = $('presence');
  box.dataset.players = String(players);
  box.textContent = players > 0 ? t('presence.player', { n: players }) : t('presence.none');
}

function drawStatus() {
  $('toggle').dataset.state = status.state === 'playing' ? 'playing' : 'paused';
  $('now-state').textContent = t('state.' + status.state);
  drawTime();
  drawPlaylist();
}

const drawTime = seekBar($('seek'), $('time'), {
  position, duration: () => status.duration || 0,
  onSeek(to) {
    send({ event: 'seek', position: to });
    status = { ...status, position: to }; // shown at once; the player's next report confirms it
    statusAt = performance.now();
  },
});

// Playback stopped: the player saves the position as it stops, so
// continue watching is read again a moment later.
function refreshLater() {
  if (library) setTimeout(library.refresh, 1000);
}

function drawMeta() {
  const img = $('now-img');
  img.hidden = true;
  img.removeAttribute('src');
  $('now-title').textContent = meta ? meta.title + (meta.year ? ' (' + meta.year + ')' : '') : t('remote.nothing');
  document.querySelector('#now-thumb .letter').textContent = meta ? meta.title.slice(0, 1) : '';
  showPlot();
  if (!meta) return;
  // Only this page's own fetch of the entry's thumbnail (a blob: URL),
  // never an address from the room: in a shared room anyone may be the
  // player, and an address of theirs would tell them who looks.
  const shown = meta;
  if (meta.media_id) thumbnail(meta.media_id).then((u) => { if (u && meta === shown) { img.src = u; img.hidden = false; } });
  drawPlaylist();
}

// The read-aloud button is for the plot of what plays: the entry of
// media_id, read once (the room's messages carry no plot). Another entry,
// or none, stops the reading and hides the button until its plot is known.
const speak = readAloud($('read-aloud'));
let plotOf = null; // the media id the button is for
function showPlot() {
  const id = meta && Number.isInteger(meta.media_id) && meta.media_id > 0 ? meta.media_id : null;
  if (id !== plotOf) { plotOf = id; speak.show(null); }
  if (!id) return;
  if (!entries.has(id)) entries.set(id, api('/api/media/' + id).catch(() => { entries.delete(id); return null; }));
  entries.get(id).then((e) => { if (plotOf === id && e) speak.show(e); });
}

const itemFile = (it) => (typeof it === 'string' ? it : it.file);
const itemTitle = (it) => (typeof it === 'string' ? it : it.title || it.file).split(/[\\/]/).pop();
const isCurrent = (it) => meta && (itemFile(it) === meta.file || (it.media_id && it.media_id === meta.media_id));

function drawPlaylist() {
  $('playlist-box').hidden = playlist.length === 0;
  $('playlist').replaceChildren(...playlist.map((it) => el('li', {},
    el('button', { type: 'button', class: 'item', 'aria-current': isCurrent(it) ? 'true' : null,
      onclick: () => send({ event: 'play', file: itemFile(it) }) }, itemTitle(it)))));
}

function drawAll() { drawPresence(); drawStatus(); drawMeta(); drawPlaylist(); }

function toggle() {
  if (status.state === 'playing') send({ event: 'pause' });
  else if (status.state === 'paused') send({ event: 'play' });
  else if (meta && (meta.file || meta.media_id)) send({ event: 'play', file: meta.file || 'media:' + meta.media_id });
  else toast(t('remote.pickFirst'), 'info');
}

function seekBy(seconds) {
  const to = Math.max(0, position() + seconds);
  send({ event: 'seek', position: status.duration > 0 ? Math.min(to, status.duration) : to });
}

// The volume goes out as the thumb moves, at most every 150 ms, and once
// more where it stops.
let volumeTimer = 0;
function sendVolume() {
  volumeAt = performance.now();
  $('volume-value').value = $('volume').value;
  if (volumeTimer) return;
  volumeTimer = setTimeout(() => { volumeTimer = 0; send({ event: 'volume', level: Number($('volume').value) }); }, 150);
}

$('toggle').addEventListener('click', toggle);
$('stop').addEventListener('click', () => send({ event: 'stop' }));
$('back10').addEventListener('click', () => seekBy(-10));
$('fwd10').addEventListener('click', () => seekBy(10));
$('volume').addEventListener('input', sendVolume);
setInterval(drawTime, 250);
onLangChange(drawAll);

const { room: name } = await startPage(join);
join(name);
library = createLibrary($('library'), {
  onPick: (e) => { send({ event: 'play', file: 'media:' + e.id }); scrollTo({ top: 0, behavior: 'smooth' }); },
});
