// The admin panel's Speech tab (API.md §10): the engines with whether
// they can speak now and why not, an engine / voice / format picker over
// GET /api/tts/voices, and "try it": GET /api/tts/synthesize fetched with
// the Authorization header (the token never goes in an address), the
// audio read whole into a Blob and played from its blob: URL in an
// <audio> element (the page's CSP allows media-src blob:). An engine that
// cannot speak answers 503 tts_unavailable; its message says what to do
// and is shown as it is.
import { t, has, addStrings } from './i18n.js';
import { api, ApiError, readable } from './api.js';
import { el, toast, showError } from './ui.js';
import { section, action, field, chip, formatBytes } from './admin-kit.js';

addStrings({
  ru: {
    'atts.engines': 'Движки речи', 'atts.engine': 'Движок', 'atts.state': 'Состояние', 'atts.voices': 'Голосов', 'atts.formats': 'Форматы',
    'atts.defaultVoices': 'Голоса по умолчанию', 'atts.available': 'доступен', 'atts.unavailable': 'недоступен', 'atts.default': 'по умолчанию',
    'atts.try': 'Попробовать', 'atts.voice': 'Голос', 'atts.byLang': 'По языку текста ({ru} / {en})', 'atts.format': 'Формат',
    'atts.text': 'Текст', 'atts.play': 'Произнести', 'atts.stop': 'Остановить',
    'atts.sample': 'Привет! Это проверка синтеза речи медиатеки.',
    'atts.playing': '{engine}, {voice}, {format}: {size}', 'atts.making': 'Синтез…', 'atts.noEngine': 'Нет ни одного движка речи.',
    'atts.engineDown': '{engine} недоступен: {message}',
    'atts.blank': 'Введите текст', 'atts.err.text_too_long': 'Текст длиннее 5000 знаков',
  },
  en: {
    'atts.engines': 'Speech engines', 'atts.engine': 'Engine', 'atts.state': 'State', 'atts.voices': 'Voices', 'atts.formats': 'Formats',
    'atts.defaultVoices': 'Default voices', 'atts.available': 'available', 'atts.unavailable': 'unavailable', 'atts.default': 'default',
    'atts.try': 'Try it', 'atts.voice': 'Voice', 'atts.byLang': 'By the text\'s language ({ru} / {en})', 'atts.format': 'Format',
    'atts.text': 'Text', 'atts.play': 'Speak', 'atts.stop': 'Stop',
    'atts.sample': 'Hello! This is a test of the media library\'s speech.',
    'atts.playing': '{engine}, {voice}, {format}: {size}', 'atts.making': 'Synthesizing…', 'atts.noEngine': 'There is no speech engine.',
    'atts.engineDown': '{engine} is unavailable: {message}',
    'atts.blank': 'Type a text', 'atts.err.text_too_long': 'The text is over 5000 characters',
  },
});

export default async function mount(root) {
  const enginesBox = el('div', {});
  const tryBox = el('div', {});
  // The tab shows once the engines are known (the panel says "loading").
  const view = el('div', { class: 'atts' }, section('atts.engines', enginesBox), section('atts.try', tryBox));
  let url = '';
  let ctl = null;
  const audio = el('audio', { id: 'atts-audio', controls: true, preload: 'auto' });
  const cleanup = () => {
    ctl?.abort();
    audio.pause();
    audio.removeAttribute('src');
    audio.load();
    if (url) URL.revokeObjectURL(url);
    url = '';
  };

  let info;
  try {
    info = await api('/api/tts/voices');
  } catch (e) {
    enginesBox.replaceChildren(el('p', { class: 'note error' }, readable(e)));
    showError(e);
    root.append(view);
    return cleanup;
  }
  root.append(view);
  const engines = info.engines || [];
  if (!engines.length) {
    enginesBox.replaceChildren(el('p', { class: 'note' }, t('atts.noEngine')));
    return cleanup;
  }

  // One card per engine (a table of long reasons reads badly on a phone).
  enginesBox.replaceChildren(el('div', { class: 'atts-engines' }, ...engines.map((e) => el('div', { class: 'atts-engine', dataset: { engine: e.name } },
    el('div', { class: 'atts-engine-head' }, el('strong', {}, e.name),
      chip(t(e.available ? 'atts.available' : 'atts.unavailable'), e.available ? 'ok' : 'err'),
      e.name === info.default_engine ? chip(t('atts.default')) : ''),
    e.message ? el('p', { class: 'note engine-message' }, e.message) : '',
    el('dl', { class: 'kv' },
      el('dt', {}, t('atts.voices')), el('dd', {}, String((e.voices || []).length)),
      el('dt', {}, t('atts.defaultVoices')), el('dd', {}, Object.entries(e.default_voices || {}).map(([l, v]) => l + ' → ' + v).join(', ') || '—'),
      el('dt', {}, t('atts.formats')), el('dd', {}, (e.formats || []).join(', ') + (e.default_format ? ' (' + e.default_format + ')' : '')))))));

  const engineSel = el('select', { id: 'atts-engine' }, engines.map((e) => el('option', { value: e.name, selected: e.name === info.default_engine },
    e.name + (e.available ? '' : ' — ' + t('atts.unavailable')))));
  const voiceSel = el('select', { id: 'atts-voice' });
  const formatSel = el('select', { id: 'atts-format' });
  const text = el('textarea', { id: 'atts-text', rows: '3', maxlength: '5000' });
  text.value = t('atts.sample');
  const status = el('p', { class: 'note', id: 'atts-status', role: 'status' });
  const engineNote = el('p', { class: 'note', id: 'atts-engine-note' });
  const play = el('button', { type: 'button', class: 'btn primary', id: 'atts-play' }, t('atts.play'));

  const chosen = () => engines.find((e) => e.name === engineSel.value) || engines[0];
  function drawEngine() {
    const e = chosen();
    const dv = e.default_voices || {};
    const voices = [...(e.voices || [])].sort((a, b) => (a.lang || '').localeCompare(b.lang || '') || a.id.localeCompare(b.id));
    voiceSel.replaceChildren(el('option', { value: '' }, t('atts.byLang', { ru: dv.ru || '—', en: dv.en || '—' })),
      ...voices.map((v) => el('option', { value: v.id }, [v.name && v.name !== v.id ? v.id + ' — ' + v.name : v.id, v.lang && v.lang !== v.id ? ' (' + v.lang + ')' : '',
        v.gender ? ', ' + v.gender : ''].join(''))));
    const formats = e.formats && e.formats.length ? e.formats : ['mp3', 'wav', 'ogg'];
    formatSel.replaceChildren(...formats.map((f) => el('option', { value: f, selected: f === e.default_format }, f)));
    engineNote.textContent = e.available ? '' : t('atts.engineDown', { engine: e.name, message: e.message || '' });
    engineNote.classList.toggle('error', !e.available);
  }
  engineSel.addEventListener('change', drawEngine);
  drawEngine();

  play.addEventListener('click', () => action(play, async () => {
    cleanup();
    // A blank text is the server's 400 invalid_input too; said here in the
    // tab's own words without a round trip.
    if (!text.value.trim()) {
      status.textContent = t('atts.blank');
      status.classList.add('error');
      text.focus();
      return;
    }
    const mine = ctl = new AbortController();
    status.classList.remove('error');
    status.textContent = t('atts.making');
    const q = { text: text.value, engine: engineSel.value, format: formatSel.value };
    if (voiceSel.value) q.voice = voiceSel.value;
    try {
      const blob = await api('/api/tts/synthesize?' + new URLSearchParams(q), { blob: true, signal: mine.signal });
      if (mine.signal.aborted) return;
      url = URL.createObjectURL(blob);
      audio.src = url;
      status.textContent = t('atts.playing', { engine: q.engine, voice: q.voice || t('atts.default'), format: q.format, size: formatBytes(blob.size) });
      await audio.play();
    } catch (e) {
      if (e.name === 'AbortError') return;
      // The tab's own words for its refusals (prefixed keys: the page's
      // global err.* strings stay as they are for the other tabs).
      const words = e.code && has('atts.err.' + e.code) ? t('atts.err.' + e.code) : readable(e);
      status.textContent = words;
      status.classList.add('error');
      // action() shows it as a toast too, in the same words when the page
      // has none of its own for the code.
      throw e instanceof ApiError && !has('err.' + e.code) && has('atts.err.' + e.code) ? new ApiError(e.status, e.code, words, e.fields) : e;
    }
  }));

  tryBox.replaceChildren(
    el('div', { class: 'atts-pick' }, field('atts.engine', engineSel), field('atts.voice', voiceSel), field('atts.format', formatSel)),
    engineNote,
    field('atts.text', text),
    el('div', { class: 'toolbar' }, play, el('button', { type: 'button', class: 'btn', onclick: () => { cleanup(); status.textContent = ''; } }, t('atts.stop'))),
    status, audio);
  audio.addEventListener('error', () => { if (audio.getAttribute('src')) toast(t('speech.failed', { m: (audio.error && audio.error.message) || '' })); });
  return cleanup;
}
