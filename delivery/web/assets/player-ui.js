// The player's own controls: a remuxed stream has no timeline the browser
// could show (it starts at 0 wherever the film starts), so the page draws
// play/pause, the seek bar and times from Playback, not from <video>'s
// built-in controls. Also the keyboard: space (or K) plays and pauses, ←
// and → move 10 s, ↑ and ↓ change the volume, F is full screen, M mutes;
// letters are read by key position, so a Russian layout works the same.
import { t } from './i18n.js';
import { el, formatTime, seekBar } from './ui.js';

const $ = (id) => document.getElementById(id);

/**
 * Wires the controls of /player. report() tells the room, stop() and
 * next() end or advance what plays, title() names it. Returns the calls
 * the page makes when what plays changes.
 */
export function wireControls({ video, pb, report, stop, next, title }) {
  const volume = $('volume');
  const drawSeek = seekBar($('seek'), $('time'), {
    position: () => pb.position(), duration: () => pb.duration(),
    onSeek: (s) => { pb.seek(s); report(); },
  });
  function draw() {
    $('toggle').dataset.state = pb.state() === 'playing' ? 'playing' : 'paused';
    drawSeek();
    $('mute').dataset.state = video.muted || video.volume === 0 ? 'muted' : 'sound';
    if (document.activeElement !== volume) volume.value = String(video.muted ? 0 : Math.round(video.volume * 100));
  }
  const actions = {
    toggle() {
      if (!pb.play) return;
      if (video.paused) { $('tap').hidden = true; pb.start(); } else video.pause();
    },
    moveBy(seconds) { pb.seek(pb.position() + seconds); report(); draw(); },
    louder(step) { if (step > 0) video.muted = false; video.volume = Math.min(1, Math.max(0, video.volume + step)); },
    mute() { video.muted = !video.muted; },
    fullscreen,
  };

  for (const ev of ['timeupdate', 'play', 'pause', 'volumechange', 'loadedmetadata', 'emptied']) video.addEventListener(ev, draw);
  setInterval(draw, 500);
  $('toggle').addEventListener('click', actions.toggle);
  $('tap').addEventListener('click', () => { $('tap').hidden = true; pb.start(); });
  $('stop').addEventListener('click', stop);
  $('next').addEventListener('click', next);
  $('fullscreen').addEventListener('click', fullscreen);
  $('mute').addEventListener('click', actions.mute);
  volume.addEventListener('input', () => { video.muted = false; video.volume = Number(volume.value) / 100; });
  $('audio').addEventListener('change', (e) => pb.setAudio(Number(e.target.value)));
  $('subs').addEventListener('change', (e) => pb.setSubtitle(Number(e.target.value)));
  $('plot').addEventListener('click', () => $('plot').classList.toggle('open')); // a long plot opens in full
  $('start-over').addEventListener('click', () => { pb.seek(0); report(); $('resume').hidden = true; });
  wireKeys(pb, actions);
  return view(pb, title, draw);
}

function fullscreen() {
  const stage = $('stage');
  const video = $('video');
  if (document.fullscreenElement) document.exitFullscreen();
  else if (stage.requestFullscreen) stage.requestFullscreen().catch(() => {});
  else if (video.webkitEnterFullscreen) video.webkitEnterFullscreen();
}

/** The keyboard, while something plays and the person is not typing in a field. */
function wireKeys(pb, a) {
  const keys = {
    Space: a.toggle, KeyK: a.toggle, ArrowLeft: () => a.moveBy(-10), ArrowRight: () => a.moveBy(10),
    ArrowUp: () => a.louder(0.05), ArrowDown: () => a.louder(-0.05), KeyF: a.fullscreen, KeyM: a.mute,
  };
  document.addEventListener('keydown', (e) => {
    const tag = e.target.tagName;
    if (e.ctrlKey || e.metaKey || e.altKey || !pb.play || !keys[e.code]) return;
    if ((tag === 'INPUT' && e.target.type !== 'range') || tag === 'SELECT' || tag === 'TEXTAREA' || e.target.isContentEditable) return;
    keys[e.code]();
    e.preventDefault(); // no page scroll, no second press of a focused button
  });
}

function options(select, items, label, none) {
  const opts = items.map((it) => el('option', { value: String(it.index) }, label(it)));
  if (none) opts.unshift(el('option', { value: '-1' }, t('ctl.subsOff')));
  select.replaceChildren(...opts);
  select.hidden = items.length < (none ? 1 : 2);
}

const audioLabel = (a) => a.label || [a.language, a.codec, a.channels ? a.channels + 'ch' : ''].filter(Boolean).join(' ') || '#' + a.index;

/** What the page shows of what plays: its title, plot, tracks and the resume note. */
function view(pb, title, draw) {
  let resumeTimer = 0;
  /** Names what plays and offers the next episode when its season has one. */
  function titled(cur) {
    $('title').hidden = !cur;
    $('title').textContent = cur ? title() + (cur.entry.year ? ' (' + cur.entry.year + ')' : '') : '';
    const i = cur ? cur.queue.findIndex((e) => e.id === cur.entry.id) : -1;
    $('next').hidden = !(i >= 0 && i + 1 < cur.queue.length);
  }
  return {
    titled,
    /** Something new plays (cur), or nothing (null). */
    loaded(cur) {
      $('controls').hidden = !cur;
      $('idle').hidden = !!cur;
      $('stage').toggleAttribute('data-idle', !cur);
      $('resume').hidden = true;
      const play = cur ? cur.play : {};
      $('warning').hidden = !play.warning;
      $('warning').textContent = play.warning || '';
      options($('audio'), play.audio_tracks || [], audioLabel);
      if (pb.audioTrack() != null) $('audio').value = String(pb.audioTrack());
      options($('subs'), play.subtitles || [], (s) => s.label || s.language || '#' + s.index, true);
      titled(cur);
      const plot = cur && typeof cur.entry.plot === 'string' ? cur.entry.plot.trim() : '';
      $('plot').textContent = plot;
      $('plot').classList.remove('open');
      $('about').hidden = !plot;
      draw();
    },
    /** Says playback resumed at pos, with a way to start over. */
    resumed(pos) {
      $('resume-text').textContent = t('player.resumed', { t: formatTime(pos) });
      $('resume').hidden = false;
      clearTimeout(resumeTimer);
      resumeTimer = setTimeout(() => { $('resume').hidden = true; }, 20000);
    },
  };
}
