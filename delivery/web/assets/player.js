// /player: the screen that plays. It joins its room as the player, obeys
// the remotes' play / pause / stop / volume / seek, reports what it does
// (status_update at least once a second while playing and on every change,
// playlist_update, metadata_update), and saves the watching position
// through PUT /progress itself, so resuming works even while the room is
// down (see docs/PAGES.md).
import { api, describe } from './api.js';
import { t, onLangChange } from './i18n.js';
import { startPage, connectionView, toast, entryTitle } from './ui.js';
import { connectRoom } from './room.js';
import { createLibrary } from './library.js';
import { Playback } from './playback.js';
import { wireControls } from './player-ui.js';
import { readAloud, stopReading } from './speech.js';

const $ = (id) => document.getElementById(id);
const video = $('video');
const pb = new Playback(video, () => { $('tap').hidden = false; report(); });
const showConn = connectionView();
let room = null;
let remotes = 0;
let current = null; // {entry, play, season, queue: episodes or [entry]}
let loading = 0; // the latest playMedia call; older ones give way
let progressRoute = true; // false once the server says it has no /progress
let lastSaved = 0;
let library = null;

// ---- the room --------------------------------------------------------------

function join(name) {
  if (room) room.close();
  room = connectRoom({ role: 'player', room: name, onMessage, onState: showConn, onOpen: announce });
}

// A room forgets everything when the server restarts: every (re)join
// repeats what this player is doing.
function announce() {
  report(true);
  if (current) { sendMetadata(); sendPlaylist(); }
}

function onMessage(m) {
  switch (m.event) {
    case 'play':
      if (m.play && m.play.stream_url) playMedia(m.play.media_id || m.media_id, { play: m.play });
      else if (m.media_id) playMedia(m.media_id);
      else { $('tap').hidden = true; pb.start(); }
      break;
    case 'pause': video.pause(); break;
    case 'stop': stop(); break;
    case 'volume': video.muted = false; video.volume = m.level / 100; break;
    case 'seek': pb.seek(m.position); report(); break;
    case 'presence': remotes = m.remotes; drawPresence(); break;
    case 'error': toast(describe(m.code, m.message)); break;
  }
}

function drawPresence() {
  $('presence').textContent = t('presence.remotes', { n: remotes });
}

let reportTimer = 0;
let lastReport = 0;
/** Sends a status_update: now, or within 200 ms (a dragged slider sends a few, not hundreds). */
function report(now) {
  const wait = 200 - (Date.now() - lastReport);
  if (!now && wait > 0) {
    if (!reportTimer) reportTimer = setTimeout(() => { reportTimer = 0; report(true); }, wait);
    return;
  }
  lastReport = Date.now();
  if (!room) return;
  const msg = { event: 'status_update', state: pb.state(), position: Math.round(pb.position() * 10) / 10,
    duration: Math.round(pb.duration() * 10) / 10, volume: video.muted ? 0 : Math.round(video.volume * 100) };
  if (msg.state === 'stopped' || msg.state === 'idle') msg.position = 0;
  else if (current) msg.media_id = current.entry.id; // the room keeps the position of this entry, no other
  room.send(msg);
}

function sendMetadata() {
  const e = current.entry;
  const msg = { event: 'metadata_update', title: neutralTitle(e).slice(0, 500), media_id: e.id, file: 'media:' + e.id,
    thumbnail_url: '/api/media/' + e.id + '/thumbnail' };
  if (e.year >= 1800 && e.year <= 2200) msg.year = e.year;
  room.send(msg);
}

function sendPlaylist() {
  const files = current.queue.slice(0, 1000).map((e) => ({ file: 'media:' + e.id, media_id: e.id, title: neutralTitle(e).slice(0, 500) }));
  room.send({ event: 'playlist_update', files });
}

// ---- what plays ------------------------------------------------------------

/** The title of what plays: an episode names its season and number. */
function displayTitle() {
  const e = current.entry;
  let s = entryTitle(e);
  if (e.media_type === 'episode' && e.number != null) {
    const season = current.season && current.season.number != null ? current.season.number : null;
    s += season != null ? ' — ' + t('player.se', { s: season, e: e.number }) : ' — ' + t('lib.episode', { n: e.number });
  }
  return s;
}

// What the room is told: remotes may read another language, so an
// episode is "Dark — S01E02", not this page's words.
function neutralTitle(e) {
  const season = current && current.season && current.season.number;
  if (e.media_type !== 'episode' || e.number == null) return entryTitle(e);
  const two = (n) => String(n).padStart(2, '0');
  return entryTitle(e) + ' — ' + (season != null ? 'S' + two(season) : '') + 'E' + two(e.number);
}

/**
 * Plays media id: its entry and /play answer (given ones are used as they
 * are), then, for an episode, its season as the playlist.
 */
async function playMedia(id, given = {}) {
  const mine = ++loading;
  const before = current;
  stopReading(); // another film: its plot is not the one being read
  leave();
  let entry, play;
  try {
    [entry, play] = await Promise.all([given.entry || api('/api/media/' + id), given.play || api('/api/media/' + id + '/play')]);
  } catch (e) {
    if (mine !== loading) return;
    toast(e.code === 'not_found' ? t('err.no_play') : describe(e.code, e.message));
    if (before) before.leaving = false; // still the one on screen: it may go on
    return;
  }
  if (mine !== loading) return;
  current = { entry, play, season: null, queue: [entry] };
  speak.show(entry);
  $('tap').hidden = true;
  const from = pb.load(play, given.position);
  ui.loaded(current);
  if (given.position == null && from > 0) ui.resumed(from);
  sendMetadata();
  sendPlaylist();
  report(true);
  if (entry.media_type === 'episode' && entry.parent_id) loadSeason(mine, entry.parent_id);
}

async function loadSeason(mine, seasonId) {
  let season;
  try { season = await api('/api/media/' + seasonId); } catch { return; }
  if (mine !== loading || !current) return;
  current.season = season;
  current.queue = season.children && season.children.length ? season.children : [current.entry];
  ui.titled(current);
  sendMetadata();
  sendPlaylist();
}

/** The episode after the current one: in its season, else the next season's first. */
async function nextEpisode() {
  if (!current || current.entry.media_type !== 'episode') return null;
  const q = current.queue;
  const i = q.findIndex((e) => e.id === current.entry.id);
  if (i >= 0 && i + 1 < q.length) return q[i + 1];
  if (!current.season || !current.season.parent_id) return null;
  let series;
  try { series = await api('/api/media/' + current.season.parent_id); } catch { return null; }
  const seasons = series.children || [];
  const at = seasons.findIndex((s) => s.id === current.season.id);
  for (const s of seasons.slice(at + 1)) if (s.number !== 0 && s.children && s.children.length) return s.children[0];
  return null;
}

async function playNext() {
  const next = await nextEpisode();
  if (next) playMedia(next.id, { entry: next }); else stop();
}

/**
 * Another film is asked for: the one on screen is saved and paused at
 * once, and says so, so that while the next one loads no report of this
 * one as playing reaches the room (it could count as watched there).
 */
function leave() {
  if (!current || current.leaving) return;
  saveProgress();
  current.leaving = true;
  video.pause();
  report(true);
}

function stop() {
  const saved = saveProgress();
  loading++;
  current = null;
  speak.show(null);
  $('tap').hidden = true;
  pb.stop();
  ui.loaded(null);
  report(true);
  // Continue watching is read again once the position is written.
  if (library) saved.finally(() => library.refresh());
}

// ---- watching position -----------------------------------------------------

/**
 * PUT /progress of what plays (keepalive: the page is going away).
 * Resolves once written (or failed); never rejects.
 */
function saveProgress(keepalive) {
  if (!current || current.leaving || !progressRoute) return Promise.resolve();
  const position = pb.position();
  const duration = pb.duration();
  if (!(duration > 0) || position < 1) return Promise.resolve();
  lastSaved = Date.now();
  return api('/api/media/' + current.entry.id + '/progress', { method: 'PUT', body: { position, duration }, keepalive })
    .then(() => {}, (e) => { if (e.code === 'not_found') progressRoute = false; });
}

// ---- start -----------------------------------------------------------------

const ui = wireControls({ video, pb, report, stop, next: playNext, title: () => displayTitle() });
// Reading the plot aloud pauses the film, and the film playing again
// (here, from the remote, the keys) stops the reading: one sound at a time.
const speak = readAloud($('read-aloud'), { onStart: () => { if (!video.paused) video.pause(); } });
video.addEventListener('play', stopReading);
for (const ev of ['play', 'pause', 'playing', 'seeked', 'volumechange', 'loadedmetadata', 'emptied']) video.addEventListener(ev, () => report());
video.addEventListener('pause', () => saveProgress());
video.addEventListener('ended', playNext); // the next film's start (or the stop) saves this one's end
video.addEventListener('error', () => { if (current && video.error) toast(t('err.media', { m: video.error.message || video.error.code })); });
addEventListener('pagehide', () => saveProgress(true));
setInterval(() => {
  if (pb.state() !== 'playing' || (current && current.leaving)) return;
  report(true);
  if (Date.now() - lastSaved > 10000) saveProgress();
}, 1000);
onLangChange(() => { drawPresence(); if (current) { ui.titled(current); sendMetadata(); sendPlaylist(); } });

const { room: name } = await startPage(join);
join(name);
drawPresence();
library = createLibrary($('library'), { onPick: (e) => { playMedia(e.id, { entry: e }); scrollTo({ top: 0, behavior: 'smooth' }); } });
