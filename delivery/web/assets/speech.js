// Read aloud: an entry's plot spoken by the server (GET
// /api/tts/stream-audio) and played on this device while it is still
// being made. The request carries the token in its header, like every
// call, so the audio cannot be an <audio src> of the API: the page reads
// the response itself. MP3 goes through a MediaSource, chunk by chunk as
// it arrives, so the first sentence sounds before the last is spoken;
// another format (wav, when the server has no ffmpeg), or a browser
// without MediaSource for audio/mpeg, is collected into a Blob first.
// One reading at a time on a page; stopping aborts the request, and the
// server then ends its synthesis. See docs/PAGES.md.
import { speech, readable } from './api.js';
import { t, onLangChange } from './i18n.js';
import { toast } from './ui.js';

let active = null; // the reading under way: {button, stop}

/** Stops what is being read aloud, if anything. */
export function stopReading() {
  if (active) active.stop();
}

// The page's one hidden <audio> for speech, made on first use.
function audioElement() {
  let a = document.getElementById('speech');
  if (!a) {
    a = document.createElement('audio');
    a.id = 'speech';
    a.hidden = true;
    document.body.append(a);
  }
  return a;
}

/**
 * Reads the plot of media id aloud for button; changed() runs when it
 * starts and when it ends. Ends on its own at the end of the audio, on
 * stopReading(), or on a failure, which is shown as a toast.
 */
async function read(mediaId, button, changed) {
  stopReading();
  const ctrl = new AbortController();
  const audio = audioElement();
  let url = '';
  let over = false;
  const finish = (err) => {
    if (over) return;
    over = true;
    ctrl.abort(); // the request (the server stops speaking) and this reading's listeners
    audio.pause();
    audio.removeAttribute('src');
    audio.load();
    if (url) URL.revokeObjectURL(url);
    if (active === reading) active = null;
    if (err) toast(readable(err));
    changed();
  };
  const reading = { button, stop: () => finish() };
  active = reading;
  changed();
  const on = { signal: ctrl.signal };
  audio.addEventListener('ended', () => finish(), on);
  audio.addEventListener('error', () => finish(new Error(t('speech.failed', { m: (audio.error && audio.error.message) || '' }))), on);
  const play = () => audio.play().catch((e) => { if (e.name !== 'AbortError') finish(e); });
  try {
    const r = await speech(mediaId, 'plot', { signal: ctrl.signal });
    const type = (r.headers.get('Content-Type') || '').split(';')[0].trim();
    if (type === 'audio/mpeg' && window.MediaSource && MediaSource.isTypeSupported('audio/mpeg')) {
      const ms = new MediaSource();
      audio.src = url = URL.createObjectURL(ms);
      await new Promise((resolve) => ms.addEventListener('sourceopen', resolve, { once: true, signal: ctrl.signal }));
      await stream(r.body.getReader(), ms, audio, play, ctrl.signal);
    } else {
      const blob = await r.blob();
      if (over) return;
      audio.src = url = URL.createObjectURL(blob);
      play();
    }
  } catch (e) {
    if (!over && e.name !== 'AbortError') finish(e);
  }
}

/**
 * Appends the MP3 of reader to a SourceBuffer of ms as it arrives and
 * starts playback with the first chunk. What was heard long ago is let
 * go, so a long text stays under the buffer's quota.
 */
async function stream(reader, ms, audio, play, signal) {
  const sb = ms.addSourceBuffer('audio/mpeg');
  // One update: both listeners go when either fires (or op throws), so a
  // long text does not leave an error listener behind per chunk.
  const update = (op) => new Promise((resolve, reject) => {
    const done = new AbortController();
    const on = { once: true, signal: done.signal };
    sb.addEventListener('updateend', () => { done.abort(); resolve(); }, on);
    sb.addEventListener('error', () => { done.abort(); reject(new Error(t('speech.failed', { m: 'SourceBuffer' }))); }, on);
    try {
      op();
    } catch (e) {
      done.abort();
      reject(e);
    }
  });
  let started = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (signal.aborted) return;
    if (done) break;
    const heard = audio.currentTime - 30;
    if (heard > 0 && sb.buffered.length && sb.buffered.start(0) < heard) await update(() => sb.remove(0, heard));
    await update(() => sb.appendBuffer(value));
    if (!started) { started = true; play(); }
  }
  if (!signal.aborted && ms.readyState === 'open') ms.endOfStream();
}

/**
 * Wires a read-aloud button (an element with a .label inside): hidden
 * until show() gives it an entry with a plot; it reads that plot, and
 * while reading it says "Stop" and stops. onStart() runs as a reading
 * starts (the player pauses its film). Returns {show(entry or null)}:
 * another entry, or none, stops what this button reads.
 */
export function readAloud(button, { onStart } = {}) {
  let entry = null;
  const mine = () => active !== null && active.button === button;
  function draw() {
    const on = mine();
    button.hidden = !(entry && typeof entry.plot === 'string' && entry.plot.trim() !== '');
    button.dataset.state = on ? 'reading' : 'idle';
    button.setAttribute('aria-pressed', String(on));
    button.querySelector('.label').textContent = t(on ? 'speech.stop' : 'speech.read');
  }
  button.addEventListener('click', () => {
    if (mine()) { stopReading(); return; }
    if (!entry) return;
    if (onStart) onStart();
    read(entry.id, button, draw);
  });
  onLangChange(draw);
  draw();
  return {
    show(e) {
      if (mine() && (!e || !entry || e.id !== entry.id)) stopReading();
      entry = e || null;
      draw();
    },
  };
}
