// The admin panel's Semantic search tab: the index's status, a build with
// its progress (polled while it runs, and the rag_indexed event when it
// ends), and a query tried against the index with each result's score.
import { t, addStrings, currentLang } from './i18n.js';
import { el, entryTitle, showError, toast } from './ui.js';
import { api } from './api.js';
import { section, table, get, action, progress, chip, formatNumber, formatDate } from './admin-kit.js';

addStrings({
  ru: {
    'rs.status': 'Индекс', 'rs.state': 'Состояние', 'rs.indexed': 'В индексе', 'rs.embedder': 'Модель векторов',
    'rs.dimensions': 'Размерность', 'rs.builtAt': 'Построен', 'rs.error': 'Ошибка', 'rs.build': 'Построить индекс',
    'rs.building': 'Строится: {n} из {total}', 'rs.built': 'Индекс построен: {n} записей', 'rs.buildFailed': 'Индекс не построен: {error}',
    'rs.try': 'Попробовать запрос', 'rs.query': 'Запрос', 'rs.placeholder': 'например: грустный фильм про космос',
    'rs.search': 'Искать', 'rs.topK': 'Сколько', 'rs.type': 'Тип', 'rs.any': 'любой', 'rs.movie': 'фильмы', 'rs.seriesType': 'сериалы',
    'rs.score': 'Сходство', 'rs.title': 'Название', 'rs.year': 'Год', 'rs.kind': 'Тип', 'rs.none': 'Ничего похожего не нашлось.',
    'rs.found': 'Найдено: {n}', 'rs.embedded': 'Пересчитано в последний раз',
    'kind.movie': 'фильм', 'kind.series': 'сериал', 'kind.season': 'сезон', 'kind.episode': 'серия',
    'rst.idle': 'не строился', 'rst.running': 'строится', 'rst.completed': 'построен', 'rst.failed': 'ошибка', 'rst.cancelled': 'отменён',
  },
  en: {
    'rs.status': 'Index', 'rs.state': 'State', 'rs.indexed': 'Indexed', 'rs.embedder': 'Embedding model',
    'rs.dimensions': 'Dimensions', 'rs.builtAt': 'Built', 'rs.error': 'Error', 'rs.build': 'Build the index',
    'rs.building': 'Building: {n} of {total}', 'rs.built': 'The index is built: {n} entries', 'rs.buildFailed': 'The index was not built: {error}',
    'rs.try': 'Try a query', 'rs.query': 'Query', 'rs.placeholder': 'e.g. a sad film about space',
    'rs.search': 'Search', 'rs.topK': 'How many', 'rs.type': 'Type', 'rs.any': 'any', 'rs.movie': 'movies', 'rs.seriesType': 'series',
    'rs.score': 'Similarity', 'rs.title': 'Title', 'rs.year': 'Year', 'rs.kind': 'Type', 'rs.none': 'Nothing similar was found.',
    'rs.found': 'Found: {n}', 'rs.embedded': 'Embedded last time',
    'kind.movie': 'movie', 'kind.series': 'series', 'kind.season': 'season', 'kind.episode': 'episode',
    'rst.idle': 'never built', 'rst.running': 'building', 'rst.completed': 'built', 'rst.failed': 'failed', 'rst.cancelled': 'cancelled',
  },
});

const base = '/api/media-admin/rag';
const stateKind = { completed: 'ok', running: 'warn', failed: 'err', cancelled: 'warn' };

function drawStatus(box, st) {
  const rows = [
    ['rs.state', chip(t('rst.' + st.state), stateKind[st.state] || 'muted')],
    ['rs.indexed', st.total ? formatNumber(st.indexed) + ' / ' + formatNumber(st.total) : formatNumber(st.indexed)],
    ['rs.embedder', [st.provider, st.model].filter(Boolean).join(' · ') || '—'],
    ['rs.dimensions', st.dimensions ? formatNumber(st.dimensions) : '—'],
    ['rs.builtAt', formatDate(st.built_at)],
    ['rs.embedded', formatNumber(st.embedded)],
  ];
  if (st.error) rows.push(['rs.error', el('span', { class: 'error' }, st.error)]);
  box.replaceChildren(
    st.state === 'running' ? progress(st.indexed, st.total, t('rs.building', { n: formatNumber(st.indexed), total: formatNumber(st.total) })) : '',
    el('dl', { class: 'kv', dataset: { state: st.state } }, rows.flatMap(([k, v]) => [el('dt', {}, t(k)), el('dd', {}, v)])));
}

function drawResults(box, results) {
  const ru = currentLang() === 'ru';
  box.replaceChildren(
    el('p', { class: 'note' }, t('rs.found', { n: formatNumber(results.length) })),
    table([
      { label: 'rs.score', class: 'num', cell: (r) => r.score.toLocaleString(ru ? 'ru' : 'en', { minimumFractionDigits: 3, maximumFractionDigits: 3 }) },
      { label: 'rs.title', cell: (r) => entryTitle(r.media) },
      { label: 'rs.year', class: 'num', cell: (r) => (r.media.year ? String(r.media.year) : '—') },
      { label: 'rs.kind', cell: (r) => t('kind.' + r.media.media_type) },
    ], results, 'rs.none'));
}

export default async function mount(root, { onEvent }) {
  const status = el('div', { id: 'rs-status' });
  const build = el('button', { type: 'button', class: 'btn primary', id: 'rs-build' }, t('rs.build'));
  const query = el('input', { type: 'search', id: 'rs-query', placeholder: t('rs.placeholder'), maxlength: '1000', required: true });
  const topK = el('select', { id: 'rs-topk' }, [5, 10, 20, 50].map((n) => el('option', { value: String(n) }, String(n))));
  const type = el('select', { id: 'rs-type' }, el('option', { value: '' }, t('rs.any')), el('option', { value: 'movie' }, t('rs.movie')),
    el('option', { value: 'series' }, t('rs.seriesType')));
  const go = el('button', { type: 'submit', class: 'btn primary' }, t('rs.search'));
  const results = el('div', { id: 'rs-results' });
  const form = el('form', { class: 'toolbar', id: 'rs-form' }, query, topK, type, go);
  query.setAttribute('aria-label', t('rs.query'));
  topK.setAttribute('aria-label', t('rs.topK'));
  type.setAttribute('aria-label', t('rs.type'));
  root.append(section('rs.status', status, el('div', { class: 'row-actions' }, build)), section('rs.try', form, results));

  let timer = 0;
  let stopped = false;
  let last = null;
  // poll reads the status; while a build runs it asks again every second.
  const poll = async () => {
    clearTimeout(timer);
    try {
      const st = await get(base + '/status');
      if (stopped) return;
      // A build this page started that has ended says how it went.
      if (last === 'running' && st.state !== 'running') {
        if (st.state === 'completed') toast(t('rs.built', { n: formatNumber(st.indexed) }), 'info');
        else toast(t('rs.buildFailed', { error: st.error || t('rst.' + st.state) }));
      }
      last = st.state;
      drawStatus(status, st);
      build.disabled = st.state === 'running';
      if (st.state === 'running') timer = setTimeout(poll, 1000);
    } catch (e) { showError(e); }
  };
  build.addEventListener('click', () => action(build, async ({ keep }) => {
    await api(base + '/build', { method: 'POST', body: {} });
    last = 'running';
    await poll();
    // A build that runs keeps the button disabled (a second one is a
    // 409); the poll that sees it end enables it.
    if (build.disabled) keep();
  }));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = query.value.trim();
    if (!q) { query.reportValidity(); return; }
    action(go, async () => {
      const body = { query: q, top_k: Number(topK.value) };
      if (type.value) body.type = type.value;
      const out = await api(base + '/search', { method: 'POST', body });
      drawResults(results, out.results);
    });
  });
  const off = onEvent((ev) => { if (ev.event === 'rag_indexed') poll(); });
  await poll();
  return () => { stopped = true; clearTimeout(timer); off(); };
}
