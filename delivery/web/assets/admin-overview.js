// The admin panel's Overview tab: the library's counts, its works by
// category and by decade (GET /api/media-admin/stats), the disks, the
// library's events as they happen, the downloads under way and the health
// of the AI model and its keys. Every part loads on its own: one that
// fails says so and leaves the others drawn.
import { t, addStrings, currentLang } from './i18n.js';
import { el, showError } from './ui.js';
import { section, table, get, barChart, progress, chip, torrentStateChip, formatBytes, formatNumber, formatDate } from './admin-kit.js';

addStrings({
  ru: {
    'ov.counts': 'Библиотека', 'ov.movies': 'Фильмы', 'ov.series': 'Сериалы', 'ov.seasons': 'Сезоны', 'ov.episodes': 'Серии',
    'ov.missing': 'Пропавшие', 'ov.byCategory': 'Фильмы и сериалы по категориям', 'ov.byDecade': 'По десятилетиям',
    'ov.decade': '{d}-е', 'ov.undated': 'Без года', 'ov.noWorks': 'В библиотеке пока нет фильмов и сериалов.',
    'ov.disks': 'Диски', 'ov.disk': 'Диск', 'ov.path': 'Папка', 'ov.entries': 'Записей', 'ov.files': 'Файлы',
    'ov.space': 'Место на диске', 'ov.free': 'свободно {free} из {total}', 'ov.absent': 'папки нет', 'ov.unmeasured': 'не измерено',
    'ov.events': 'События', 'ov.noEvents': 'Событий пока не было. Начните сканирование — оно появится здесь сразу.',
    'ov.torrents': 'Загрузки', 'ov.noTorrents': 'Сейчас ничего не загружается.',
    'ov.torrentsOff': 'Торрент-клиент не настроен или недоступен.', 'ov.name': 'Название', 'ov.state': 'Состояние', 'ov.progress': 'Готово',
    'ov.ai': 'ИИ и ключи', 'ov.model': 'Модель', 'ov.offline': 'встроенный помощник (без ИИ)', 'ov.embedder': 'Смысловой поиск',
    'ov.keys': 'Ключи', 'ov.noKeys': 'ключей нет', 'ov.active': 'активны: {n}', 'ov.exhausted': 'исчерпаны: {n}',
    'ov.rejected': 'отклонены: {n}', 'ov.disabled': 'выключены: {n}', 'ov.indexBuilt': 'индекс: {n} записей', 'ov.noIndex': 'индекс не построен',
    'ev.scan_started': 'Сканирование начато: {n} папок', 'ev.scan_progress': 'Сканирование: просмотрено {seen}, добавлено {added}',
    'ev.scan_completed': 'Сканирование {state}: файлов {seen}, добавлено {added}, обновлено {updated}, пропало {missing}',
    'ev.audit_completed': 'Проверка завершена: проблем {total}', 'ev.classify_started': 'Классификация начата ({model})',
    'ev.classify_progress': 'Классификация: {done} из {total}', 'ev.classify_completed': 'Классификация {state}: {done} из {total}',
    'ev.torrent_completed': 'Загрузка завершена: {name}', 'ev.rag_indexed': 'Смысловой индекс {state}: {indexed} из {total}',
    'ev.other': 'Событие {name}',
    'st.completed': 'завершено', 'st.cancelled': 'отменено', 'st.failed': 'не удалось', 'st.running': 'идёт', 'st.idle': 'ожидает',
  },
  en: {
    'ov.counts': 'Library', 'ov.movies': 'Movies', 'ov.series': 'Series', 'ov.seasons': 'Seasons', 'ov.episodes': 'Episodes',
    'ov.missing': 'Missing', 'ov.byCategory': 'Movies and series by category', 'ov.byDecade': 'By decade',
    'ov.decade': '{d}s', 'ov.undated': 'No year', 'ov.noWorks': 'No movies or series in the library yet.',
    'ov.disks': 'Disks', 'ov.disk': 'Disk', 'ov.path': 'Folder', 'ov.entries': 'Entries', 'ov.files': 'Files',
    'ov.space': 'Disk space', 'ov.free': '{free} free of {total}', 'ov.absent': 'folder missing', 'ov.unmeasured': 'not measured',
    'ov.events': 'Events', 'ov.noEvents': 'No events yet. Start a scan and it shows here at once.',
    'ov.torrents': 'Downloads', 'ov.noTorrents': 'Nothing is downloading now.',
    'ov.torrentsOff': 'The torrent client is not configured or cannot be reached.', 'ov.name': 'Name', 'ov.state': 'State', 'ov.progress': 'Done',
    'ov.ai': 'AI and keys', 'ov.model': 'Model', 'ov.offline': 'built-in assistant (no AI)', 'ov.embedder': 'Semantic search',
    'ov.keys': 'Keys', 'ov.noKeys': 'no keys', 'ov.active': 'active: {n}', 'ov.exhausted': 'exhausted: {n}',
    'ov.rejected': 'rejected: {n}', 'ov.disabled': 'disabled: {n}', 'ov.indexBuilt': 'index: {n} entries', 'ov.noIndex': 'index not built',
    'ev.scan_started': 'Scan started: {n} folders', 'ev.scan_progress': 'Scanning: {seen} seen, {added} added',
    'ev.scan_completed': 'Scan {state}: {seen} files, {added} added, {updated} updated, {missing} missing',
    'ev.audit_completed': 'Audit finished: {total} issues', 'ev.classify_started': 'Classification started ({model})',
    'ev.classify_progress': 'Classification: {done} of {total}', 'ev.classify_completed': 'Classification {state}: {done} of {total}',
    'ev.torrent_completed': 'Download finished: {name}', 'ev.rag_indexed': 'Semantic index {state}: {indexed} of {total}',
    'ev.other': 'Event {name}',
    'st.completed': 'completed', 'st.cancelled': 'cancelled', 'st.failed': 'failed', 'st.running': 'running', 'st.idle': 'idle',
  },
});

/** A state word of an event or a job in the page's language. */
export const stateText = (s) => (s ? t('st.' + s) : '—');

/** One library event as a sentence in the page's language. */
export function eventText(ev) {
  const n = (v) => formatNumber(v || 0);
  switch (ev.event) {
    case 'scan_started': return t('ev.scan_started', { n: n((ev.paths || []).length) });
    case 'scan_progress': return t('ev.scan_progress', { seen: n(ev.files_seen), added: n(ev.added) });
    case 'scan_completed': return t('ev.scan_completed', { state: stateText(ev.state), seen: n(ev.files_seen), added: n(ev.added),
      updated: n(ev.updated), missing: n(ev.missing) });
    case 'audit_completed': return t('ev.audit_completed', { total: n(ev.total) });
    case 'classify_started': return t('ev.classify_started', { model: ev.model || '—' });
    case 'classify_progress': return t('ev.classify_progress', { done: n(ev.classified), total: n(ev.total) });
    case 'classify_completed': return t('ev.classify_completed', { state: stateText(ev.state), done: n(ev.classified), total: n(ev.total) });
    case 'torrent_completed': return t('ev.torrent_completed', { name: ev.name || '' });
    case 'rag_indexed': return t('ev.rag_indexed', { state: stateText(ev.state), indexed: n(ev.indexed), total: n(ev.total) });
    default: return t('ev.other', { name: String(ev.event || '?') });
  }
}

function eventItem(ev) {
  const at = ev.at ? new Date(ev.at) : new Date();
  return el('li', { dataset: { event: ev.event || '' } },
    el('time', { datetime: at.toISOString() }, at.toLocaleTimeString(currentLang())), el('span', {}, eventText(ev)));
}

function stat(key, value) {
  return el('div', { class: 'stat', dataset: { stat: key } }, el('span', { class: 'num' }, formatNumber(value)), el('span', { class: 'label' }, t('ov.' + key)));
}

function drawStats(box, s) {
  const c = s.counts;
  box.replaceChildren(el('div', { class: 'stats' }, ['movies', 'series', 'seasons', 'episodes', 'missing'].map((k) => stat(k, c[k]))));
}

function drawCharts(cat, dec, s) {
  const ru = currentLang() === 'ru';
  const cats = s.by_category.filter((c) => c.count > 0).map((c) => ({ label: ru ? c.title_ru : c.title_en, value: c.count, name: c.name }));
  cat.replaceChildren(cats.length ? barChart(cats) : el('p', { class: 'note' }, t('ov.noWorks')));
  const decs = s.by_decade.map((d) => ({ label: t('ov.decade', { d: String(d.decade) }), value: d.count }));
  if (s.undated) decs.push({ label: t('ov.undated'), value: s.undated });
  dec.replaceChildren(decs.length ? barChart(decs) : el('p', { class: 'note' }, t('ov.noWorks')));
}

function drawDisks(box, s) {
  box.replaceChildren(table([
    { label: 'ov.disk', cell: (r) => el('strong', {}, r.disk) },
    { label: 'ov.path', class: 'path', cell: (r) => r.path },
    { label: 'ov.entries', class: 'num', cell: (r) => formatNumber(r.entries) },
    { label: 'ov.files', class: 'num', cell: (r) => formatBytes(r.size_bytes) },
    { label: 'ov.space', cell: (r) => {
      if (!r.exists) return chip(t('ov.absent'), 'err');
      if (r.fs_total_bytes == null) return chip(t('ov.unmeasured'));
      const used = r.fs_total_bytes - r.fs_free_bytes;
      return progress(used, r.fs_total_bytes, t('ov.free', { free: formatBytes(r.fs_free_bytes), total: formatBytes(r.fs_total_bytes) }));
    } },
  ], s.roots));
}

function drawEvents(list, seen) {
  list.replaceChildren(...(seen.length ? seen.map(eventItem) : [el('li', { class: 'note empty' }, t('ov.noEvents'))]));
}

async function drawTorrents(box) {
  let list;
  try {
    list = await get('/api/torrents');
  } catch (e) {
    if (e.code === 'torrent_client_unavailable' || e.status === 404) {
      box.replaceChildren(el('p', { class: 'note', dataset: { state: 'off' } }, t('ov.torrentsOff')));
      return false;
    }
    throw e;
  }
  const busy = list.filter((x) => x.progress < 1 || !['Seeding', 'Completed'].includes(x.state));
  box.replaceChildren(busy.length ? table([
    { label: 'ov.name', cell: (x) => x.name },
    { label: 'ov.state', cell: torrentStateChip },
    { label: 'ov.progress', cell: (x) => progress(x.progress * 1000, 1000, Math.round(x.progress * 100) + '% · ' + formatBytes(x.size)) },
  ], busy) : el('p', { class: 'note' }, t('ov.noTorrents')));
  return true;
}

async function drawAI(box) {
  const [si, keys, rag] = await Promise.allSettled([get('/api/admin/system_instruction'), get('/api/keys'), get('/api/media-admin/rag/status')]);
  const rows = [];
  if (si.status === 'fulfilled') {
    const v = si.value;
    rows.push([t('ov.model'), v.provider === 'offline' ? t('ov.offline') : v.provider + ' · ' + (v.model || '—')]);
  }
  if (rag.status === 'fulfilled') {
    const r = rag.value;
    rows.push([t('ov.embedder'), [r.provider, r.model].filter(Boolean).join(' · ') + ' — ' + (r.built_at ? t('ov.indexBuilt', { n: formatNumber(r.indexed) }) : t('ov.noIndex'))]);
  }
  let chips = [];
  if (keys.status === 'fulfilled') {
    const count = {};
    for (const k of keys.value.keys) count[k.status] = (count[k.status] || 0) + 1;
    chips = keys.value.keys.length ? [
      chip(t('ov.active', { n: count.active || 0 }), count.active ? 'ok' : 'warn'),
      count.exhausted ? chip(t('ov.exhausted', { n: count.exhausted }), 'warn') : null,
      count.rejected ? chip(t('ov.rejected', { n: count.rejected }), 'err') : null,
      count.disabled ? chip(t('ov.disabled', { n: count.disabled })) : null,
    ] : [chip(t('ov.noKeys'))];
  }
  box.replaceChildren(el('dl', { class: 'kv' },
    rows.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]),
    el('dt', {}, t('ov.keys')), el('dd', { class: 'chips', id: 'ov-keys' }, chips)));
  for (const r of [si, keys, rag]) if (r.status === 'rejected' && r.reason?.status !== 404) showError(r.reason);
}

export default async function mount(root, { onEvent, recentEvents }) {
  const counts = el('div', { id: 'ov-counts' });
  const cat = el('div', { id: 'ov-categories' });
  const dec = el('div', { id: 'ov-decades' });
  const disks = el('div', { id: 'ov-disks' });
  const events = el('ul', { class: 'events', id: 'ov-events', 'aria-live': 'polite' });
  const torrents = el('div', { id: 'ov-torrents' });
  const ai = el('div', { id: 'ov-ai' });
  root.append(
    section('ov.counts', counts),
    el('div', { class: 'cols' }, section('ov.byCategory', cat), section('ov.byDecade', dec)),
    section('ov.disks', disks),
    el('div', { class: 'cols' }, section('ov.events', events), section('ov.torrents', torrents)),
    section('ov.ai', ai),
  );
  drawEvents(events, recentEvents());

  let stats = null;
  let refresh = 0;
  const loadStats = async () => {
    try {
      stats = await get('/api/media-admin/stats');
      drawStats(counts, stats);
      drawCharts(cat, dec, stats);
      drawDisks(disks, stats);
      root.dataset.statsLoaded = String(++refresh);
    } catch (e) { showError(e); }
  };
  // A library event is shown at once; one that changes the catalogue
  // redraws the counts a moment later (bursts of progress only once).
  // The panel keeps the events (recentEvents, already holding this one).
  let pending = 0;
  const off = onEvent((ev) => {
    drawEvents(events, recentEvents());
    if (/_completed$|rag_indexed/.test(ev.event || '')) {
      clearTimeout(pending);
      pending = setTimeout(loadStats, 300);
    }
  });
  let timer = 0;
  let stopped = false;
  // The next poll is planned whatever this one met: an unexpected error
  // is told once (not every 5 s) and the list is asked again; only "not
  // configured" ends the polling.
  let failing = false;
  const loadTorrents = async () => {
    let again = true;
    try {
      again = await drawTorrents(torrents);
      failing = false;
    } catch (e) {
      if (!failing) showError(e);
      failing = true;
    } finally {
      if (again && !stopped) timer = setTimeout(loadTorrents, 5000);
    }
  };
  await Promise.all([loadStats(), loadTorrents(), drawAI(ai).catch(showError)]);
  return () => {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(pending);
    off();
  };
}
