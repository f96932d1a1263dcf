// /remote: drives the room's player, on the remote core that the Mini App
// shares (remote-core.js: the transport, what plays, the room). This page
// adds the room picker, the player's playlist, the read-aloud button for
// the plot of what plays, and the library whose pick plays in the room.
import { api } from './api.js';
import { startPage, el } from './ui.js';
import { createLibrary } from './library.js';
import { readAloud, stopReading } from './speech.js';
import { createRemote } from './remote-core.js';

const $ = (id) => document.getElementById(id);
let playlist = [];
let library = null;
const entries = new Map(); // media id → Promise of its entry (for its plot), read once

// The read-aloud button is for the plot of what plays: the entry of
// media_id, read once (the room's messages carry no plot). Another entry,
// or none, stops the reading and hides the button until its plot is known.
const speak = readAloud($('read-aloud'));
let plotOf = null; // the media id the button is for
function showPlot(meta) {
  const id = meta && Number.isInteger(meta.media_id) && meta.media_id > 0 ? meta.media_id : null;
  if (id !== plotOf) { plotOf = id; speak.show(null); }
  if (!id) return;
  if (!entries.has(id)) entries.set(id, api('/api/media/' + id).catch(() => { entries.delete(id); return null; }));
  entries.get(id).then((e) => { if (plotOf === id && e) speak.show(e); });
}

const itemFile = (it) => (typeof it === 'string' ? it : it.file);
const itemTitle = (it) => (typeof it === 'string' ? it : it.title || it.file).split(/[\\/]/).pop();

function drawPlaylist() {
  const meta = remote.meta();
  const isCurrent = (it) => meta && (itemFile(it) === meta.file || (it.media_id && it.media_id === meta.media_id));
  $('playlist-box').hidden = playlist.length === 0;
  $('playlist').replaceChildren(...playlist.map((it) => el('li', {},
    el('button', { type: 'button', class: 'item', 'aria-current': isCurrent(it) ? 'true' : null,
      onclick: () => remote.send({ event: 'play', file: itemFile(it) }) }, itemTitle(it)))));
}

const remote = createRemote({
  onStatus(next, prev) {
    // Playback stopped: the player saves the position as it stops, so
    // continue watching is read again a moment later.
    if (next.state === 'stopped' && prev.state !== 'stopped' && library) setTimeout(library.refresh, 1000);
    if (next.state === 'playing' && prev.state !== 'playing') stopReading(); // the film's sound is back
  },
  onMeta(meta) { showPlot(meta); drawPlaylist(); },
  onMessage(m) {
    if (m.event === 'playlist_update') { playlist = Array.isArray(m.files) ? m.files : []; drawPlaylist(); }
  },
  beforeSend(msg) { if (msg.event === 'play') stopReading(); }, // a film to be heard instead
  onReset() { playlist = []; },
  onDraw: drawPlaylist,
});

const { room: name } = await startPage((room) => remote.join(room));
remote.join(name);
library = createLibrary($('library'), {
  onPick: (e) => { remote.send({ event: 'play', file: 'media:' + e.id }); scrollTo({ top: 0, behavior: 'smooth' }); },
});
