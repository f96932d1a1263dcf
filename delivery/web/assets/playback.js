// Plays one answer of GET /api/media/{id}/play in a <video>, with only the
// URLs that answer holds (they carry a play token, never the session JWT).
// In direct mode the browser seeks in the file itself. In remux mode the
// server streams fragmented MP4 made from `start`: a seek outside what is
// buffered reloads the source at the new start, and the video's own clock
// restarts at 0, so position() adds that offset back and the subtitles'
// cues are moved by it. With the video copied, a remux can only begin on a
// keyframe at or before the start asked for: a HEAD of its address tells
// where (X-Remux-Start), and the video then moves on to the exact second.
// The duration is the answer's: a remuxed stream does not know its own.
import { el } from './ui.js';

export class Playback {
  /** video: the element; onBlocked(): the browser refused to start without a tap. */
  constructor(video, onBlocked) {
    this.video = video;
    this.onBlocked = onBlocked;
    this.play = null;
    this.remux = false;
    this.offset = 0;
    this.audio = null;
    this.pendingSeek = null; // a position in the film to go to once the video has loaded
    this.stopped = false;
    this.loads = 0; // the latest source(); an older one that finishes late gives way
    video.addEventListener('loadedmetadata', () => {
      if (this.pendingSeek != null) this.video.currentTime = Math.max(0, this.pendingSeek - this.offset);
      this.pendingSeek = null;
    });
  }

  /**
   * Loads a /play answer and starts it at position, by default where the
   * person stopped (unless that was the very end). Returns the position.
   */
  load(play, position) {
    if (position == null) {
      const resume = play.resume_position || 0;
      position = !(play.duration > 0) || resume < play.duration * 0.95 ? resume : 0;
    }
    this.play = play;
    this.stopped = false;
    this.remux = play.mode === 'remux';
    this.audio = null; // the file's default track until the person picks one
    this.setTracks(play.subtitles || []);
    this.source(position, true);
    return position;
  }

  /** The stream address starting at start seconds (remux) or the file (direct). */
  address(start) {
    const u = new URL(this.play.stream_url, location.href);
    if (this.remux) {
      u.searchParams.set('remux', '1');
      if (this.audio != null) u.searchParams.set('audio', String(this.audio));
      if (start > 0) u.searchParams.set('start', start.toFixed(1)); else u.searchParams.delete('start');
    }
    return u.pathname + u.search;
  }

  /** The audio track that plays: the one picked, else the file's default. */
  audioTrack() {
    if (this.audio != null) return this.audio;
    const tracks = (this.play && this.play.audio_tracks) || [];
    const def = tracks.find((a) => a.default) || tracks[0];
    return def ? def.index : null;
  }

  async source(position, playing) {
    const mine = ++this.loads;
    position = Math.max(0, position || 0);
    this.pendingSeek = position > 0 ? position : null;
    let offset = 0;
    if (this.remux && position > 0) {
      offset = position;
      try {
        const r = await fetch(this.address(position), { method: 'HEAD' });
        const k = parseFloat(r.headers.get('X-Remux-Start'));
        if (Number.isFinite(k) && k >= 0 && k <= position) offset = k;
      } catch { /* the GET will say what is wrong */ }
      if (mine !== this.loads || !this.play) return;
    }
    this.offset = offset;
    if (this.pendingSeek != null && this.pendingSeek - offset < 0.25) this.pendingSeek = null;
    this.video.src = this.address(position);
    this.shiftCues();
    if (playing) this.start();
  }

  /** Starts or resumes playing; a refusal without a tap goes to onBlocked. */
  start() {
    if (!this.play) return;
    const p = this.video.play();
    if (p) p.catch((e) => { if (e.name === 'NotAllowedError') this.onBlocked(); });
  }

  /** Seconds into the film, whatever the mode. */
  position() {
    if (!this.play) return 0;
    if (this.pendingSeek != null) return this.pendingSeek;
    return this.offset + (this.video.currentTime || 0);
  }

  /** Seconds of the whole film; 0 when unknown. */
  duration() {
    if (!this.play) return 0;
    if (this.play.duration > 0) return this.play.duration;
    const d = this.video.duration;
    return !this.remux && Number.isFinite(d) ? d : 0;
  }

  /** 'idle', 'playing', 'paused' or 'stopped', as the room knows them. */
  state() {
    if (!this.play) return this.stopped ? 'stopped' : 'idle';
    return this.video.paused ? 'paused' : 'playing';
  }

  /** Moves to pos seconds (kept within the film). */
  seek(pos) {
    if (!this.play || !Number.isFinite(pos)) return;
    const d = this.duration();
    pos = Math.max(0, d > 0 ? Math.min(pos, Math.max(0, d - 1)) : pos);
    if (!this.remux) {
      if (this.pendingSeek != null) this.pendingSeek = pos; else this.video.currentTime = pos;
      return;
    }
    const rel = pos - this.offset;
    const b = this.video.buffered;
    for (let i = 0; i < b.length; i++) {
      if (rel >= b.start(i) && rel <= b.end(i)) { this.video.currentTime = rel; return; }
    }
    this.source(pos, !this.video.paused);
  }

  /** Plays audio track index: the server remuxes with it, from where the film is now. */
  setAudio(index) {
    if (!this.play || index === this.audioTrack()) return;
    this.audio = index;
    this.remux = true; // a direct file has one audio the browser picks; another needs the server
    this.source(this.position(), !this.video.paused);
  }

  /** Shows subtitle index (-1: none). */
  setSubtitle(index) {
    for (const tr of this.video.querySelectorAll('track')) {
      tr.track.mode = Number(tr.dataset.index) === index ? 'showing' : 'hidden';
    }
  }

  setTracks(subs) {
    for (const tr of this.video.querySelectorAll('track')) tr.remove();
    for (const s of subs) {
      const tr = el('track', { kind: 'subtitles', src: s.url, label: s.label || s.language || '#' + s.index, dataset: { index: s.index } });
      if (s.language) tr.srclang = s.language;
      tr.addEventListener('load', () => this.shiftCues());
      this.video.append(tr);
      tr.track.mode = 'hidden'; // loaded (so its cues can be moved), not shown
    }
  }

  // Cue times are the film's; the remuxed video's clock starts at offset.
  shiftCues() {
    for (const tt of this.video.textTracks) {
      for (const c of tt.cues || []) {
        if (c.filmStart === undefined) { c.filmStart = c.startTime; c.filmEnd = c.endTime; }
        c.startTime = c.filmStart - this.offset;
        c.endTime = c.filmEnd - this.offset;
      }
    }
  }

  /** Ends playback and forgets the film. */
  stop() {
    this.play = null;
    this.stopped = true;
    this.pendingSeek = null;
    this.loads++;
    this.video.pause();
    this.video.removeAttribute('src');
    this.video.load();
    this.setTracks([]);
  }
}
