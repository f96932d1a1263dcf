// The admin panel's Torrents tab (API.md §5): the client's torrents,
// asked again every 5 s while the tab is open, with progress, state,
// speed and size; adding by magnet, by URL or from a .torrent file;
// relocating torrents whose files moved (and following its job);
// assigning categories, a dry run first whose plan is shown, then the
// same for real; and the indexers' search with results the library
// already has marked as such. A torrent client that cannot be reached
// (503 torrent_client_unavailable) is a state the list shows, not a
// message every 5 s.
//
// A .torrent file goes to POST /download as it is ({"torrent_file"}:
// base64), so the client has its metadata at once and the server checks
// it with the same decoder as a fetched one.
import { t, addStrings, currentLang } from './i18n.js';
import { api, readable } from './api.js';
import { el, toast, showError } from './ui.js';
import { section, table, pager, button, action, progress, field, chip, torrentStateChip, formatETA, formatBytes, formatDate, formatNumber } from './admin-kit.js';

addStrings({
  ru: {
    'atr.list': 'Загрузки', 'atr.name': 'Название', 'atr.state': 'Состояние', 'atr.progress': 'Готово', 'atr.size': 'Размер',
    'atr.speed': 'Скорость', 'atr.eta': 'Осталось', 'atr.added': 'Добавлен', 'atr.category': 'Категория',
    'atr.count': 'Торрентов: {n} · обновляется каждые 5 с', 'atr.updated': 'обновлено {at}',
    'atr.down': 'Торрент-клиент недоступен', 'atr.downHint': 'Проверьте, что qBittorrent запущен и адрес, логин и пароль в настройках torrent_client верны. Список обновится сам.',
    'atr.add': 'Добавить', 'atr.link': 'Magnet-ссылка или адрес .torrent', 'atr.addLink': 'Добавить ссылку',
    'atr.file': 'Файл .torrent', 'atr.fileHint': 'Файл отправляется на сервер как есть (до 750 КБ).',
    'atr.added.ok': 'Добавлено: {hash}',
    'atr.relocate': 'Перенесённые файлы', 'atr.relocateHint': 'Ищет данные торрентов с пропавшими файлами в папках библиотеки (или в указанных, по одной в строке) и указывает клиенту новое место.',
    'atr.dirs': 'Папки (необязательно)', 'atr.runRelocate': 'Найти и перенести', 'atr.relocated': 'Перенесено', 'atr.notFound': 'Не найдено',
    'atr.errors': 'Ошибки', 'atr.to': 'Куда', 'atr.truncated': 'Обход папок прерван на пределе: найдено не всё.',
    'atr.job': 'Проверено {checked} из {total}, перенесено {relocated}, не найдено {notFound}',
    'job.idle': 'не запускалось', 'job.running': 'идёт', 'job.completed': 'завершено', 'job.failed': 'ошибка', 'job.cancelled': 'отменено',
    'atr.categories': 'Категории', 'atr.categoriesHint': 'Торрентам без категории подбирается запись каталога; её категория становится категорией торрента.',
    'atr.dryRun': 'Показать план', 'atr.apply': 'Применить', 'atr.plan': 'План (ничего не изменено)', 'atr.applied': 'Применено',
    'atr.score': 'Совпадение', 'atr.entry': 'Запись', 'atr.unmatched': 'Без пары', 'atr.parsed': 'Прочитано', 'atr.reason': 'Причина',
    'atr.skipped': 'Уже с категорией: {n}', 'atr.nothingPlanned': 'Назначать нечего.',
    'reason.no_title': 'название не прочитано', 'reason.no_match': 'нет похожей записи', 'reason.no_category': 'у записи нет категории',
    'atr.search': 'Поиск торрентов', 'atr.query': 'Что искать', 'atr.anyCategory': 'Любая категория', 'atr.movies': 'Фильмы', 'atr.series': 'Сериалы',
    'atr.find': 'Найти', 'atr.found': 'Найдено: {n}', 'atr.failedIndexers': 'Не ответили: {names}', 'atr.seeders': 'Сиды / личи',
    'atr.indexer': 'Индексатор', 'atr.inLibrary': 'уже в библиотеке', 'atr.inLibraryAs': 'уже в библиотеке: {title}', 'atr.freeleech': 'freeleech',
    'atr.published': 'Опубликован',
    'err.relocate_running': 'Перенос уже идёт',
  },
  en: {
    'atr.list': 'Downloads', 'atr.name': 'Name', 'atr.state': 'State', 'atr.progress': 'Done', 'atr.size': 'Size',
    'atr.speed': 'Speed', 'atr.eta': 'Left', 'atr.added': 'Added', 'atr.category': 'Category',
    'atr.count': 'Torrents: {n} · refreshed every 5 s', 'atr.updated': 'updated {at}',
    'atr.down': 'The torrent client is unavailable', 'atr.downHint': 'Check that qBittorrent runs and that the address, user and password of torrent_client are right. The list refreshes by itself.',
    'atr.add': 'Add', 'atr.link': 'Magnet link or .torrent address', 'atr.addLink': 'Add the link',
    'atr.file': '.torrent file', 'atr.fileHint': 'The file is sent to the server as it is (up to 750 KB).',
    'atr.added.ok': 'Added: {hash}',
    'atr.relocate': 'Moved files', 'atr.relocateHint': 'Finds the data of torrents whose files are missing in the library folders (or in those given, one a line) and points the client at their new place.',
    'atr.dirs': 'Folders (optional)', 'atr.runRelocate': 'Find and relocate', 'atr.relocated': 'Relocated', 'atr.notFound': 'Not found',
    'atr.errors': 'Errors', 'atr.to': 'To', 'atr.truncated': 'The walk stopped at its limit: not everything was searched.',
    'atr.job': 'Checked {checked} of {total}, relocated {relocated}, not found {notFound}',
    'job.idle': 'never run', 'job.running': 'running', 'job.completed': 'completed', 'job.failed': 'failed', 'job.cancelled': 'cancelled',
    'atr.categories': 'Categories', 'atr.categoriesHint': 'Torrents without a category are matched to a catalogue entry; its category becomes the torrent\'s.',
    'atr.dryRun': 'Show the plan', 'atr.apply': 'Apply', 'atr.plan': 'Plan (nothing changed)', 'atr.applied': 'Applied',
    'atr.score': 'Match', 'atr.entry': 'Entry', 'atr.unmatched': 'Unmatched', 'atr.parsed': 'Read as', 'atr.reason': 'Why',
    'atr.skipped': 'Already filed: {n}', 'atr.nothingPlanned': 'Nothing to assign.',
    'reason.no_title': 'no title read', 'reason.no_match': 'no matching entry', 'reason.no_category': 'the entry has no category',
    'atr.search': 'Torrent search', 'atr.query': 'Search for', 'atr.anyCategory': 'Any category', 'atr.movies': 'Films', 'atr.series': 'Series',
    'atr.find': 'Search', 'atr.found': 'Found: {n}', 'atr.failedIndexers': 'Did not answer: {names}', 'atr.seeders': 'Seeds / leeches',
    'atr.indexer': 'Indexer', 'atr.inLibrary': 'already in the library', 'atr.inLibraryAs': 'already in the library: {title}', 'atr.freeleech': 'freeleech',
    'atr.published': 'Published',
    'err.relocate_running': 'A relocation is already running',
  },
});

const refreshMs = 5000;
const listPage = 25;
const searchPage = 20;

export default async function mount(root) {
  const stop = new AbortController();
  const listStatus = el('p', { class: 'note', id: 'atr-status' });
  const listBox = el('div', { id: 'atr-list' });
  const down = el('div', { class: 'atr-down', id: 'atr-down', hidden: true, role: 'status' });
  let torrents = [];
  let offset = 0;
  let timer = 0;

  // ---- the list ----
  async function refresh() {
    clearTimeout(timer);
    try {
      torrents = await api('/api/torrents', { signal: stop.signal });
      down.hidden = true;
      listBox.hidden = false;
      drawList();
      listStatus.textContent = t('atr.count', { n: formatNumber(torrents.length) }) + ' · ' + t('atr.updated', { at: new Date().toLocaleTimeString(currentLang()) });
    } catch (e) {
      if (e.name === 'AbortError') return;
      // Shown in place, not as a toast: it is asked again every 5 s.
      down.hidden = false;
      down.replaceChildren(el('strong', {}, e.code === 'torrent_client_unavailable' ? t('atr.down') : readable(e)),
        e.message && e.code === 'torrent_client_unavailable' ? el('p', { class: 'note' }, e.message) : '',
        el('p', { class: 'note' }, t('atr.downHint')));
      listBox.hidden = true;
      listStatus.textContent = t('atr.updated', { at: new Date().toLocaleTimeString(currentLang()) });
    }
    if (!stop.signal.aborted) timer = setTimeout(refresh, refreshMs);
  }

  function drawList() {
    if (offset >= torrents.length) offset = Math.max(0, Math.floor((torrents.length - 1) / listPage) * listPage);
    const page = torrents.slice(offset, offset + listPage);
    listBox.replaceChildren(table([
      { label: 'atr.name', cell: (x) => el('div', { class: 'atr-name', dataset: { hash: x.hash } }, el('div', { class: 'title' }, x.name || x.hash),
        el('div', { class: 'note mono' }, x.hash),
        el('div', { class: 'atr-inline-progress' }, progress(Math.round(x.progress * 1000), 1000, (x.progress * 100).toFixed(1) + ' %')), x.category ? chip(x.category) : '', x.save_path ? el('div', { class: 'note mono' }, x.save_path) : '') },
      { label: 'atr.state', cell: torrentStateChip },
      { label: 'atr.progress', class: 'atr-progress', cell: (x) => progress(Math.round(x.progress * 1000), 1000, (x.progress * 100).toFixed(1) + ' %') },
      { label: 'atr.size', class: 'num', cell: (x) => formatBytes(x.size) },
      { label: 'atr.speed', class: 'num', cell: (x) => x.download_speed ? formatBytes(x.download_speed) + '/s' : '—' },
      { label: 'atr.eta', class: 'num', cell: (x) => formatETA(x.eta) },
      { label: 'atr.added', cell: (x) => formatDate(x.added_on) },
    ], page),
    torrents.length > listPage ? pager({ total: torrents.length, limit: listPage, offset, onPage: (o) => { offset = o; drawList(); } }) : '');
  }

  // ---- adding ----
  const link = el('input', { type: 'text', id: 'atr-link', placeholder: t('atr.link'), 'aria-label': t('atr.link'), autocomplete: 'off' });
  const addLink = el('button', { type: 'submit', class: 'btn primary', id: 'atr-add' }, t('atr.addLink'));
  const linkForm = el('form', { class: 'toolbar' }, link, addLink);
  linkForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    action(addLink, async () => {
      await add(link.value.trim(), 'link');
      link.value = '';
    });
  });
  const file = el('input', { type: 'file', id: 'atr-file', accept: '.torrent,application/x-bittorrent' });
  file.addEventListener('change', () => action(null, async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    try {
      await addFile(new Uint8Array(await f.arrayBuffer()), f.name);
    } finally {
      file.value = '';
    }
  }));

  async function add(url, source) { return added(await api('/api/torrents/download', { method: 'POST', body: { url, source: 'admin panel: ' + source } })); }
  async function addFile(bytes, name) {
    return added(await api('/api/torrents/download', { method: 'POST', body: { torrent_file: base64(bytes), source: 'admin panel: ' + name } }));
  }
  function added(r) {
    toast(t('atr.added.ok', { hash: r.hash }), 'info');
    refresh();
    return r;
  }

  // ---- relocation ----
  const dirs = el('textarea', { id: 'atr-dirs', rows: '2', class: 'code small', placeholder: '/srv/media' });
  const relocateJob = el('div', { class: 'atr-job' });
  let jobTimer = 0;
  // The status is the current or last relocation, inline or a job: its
  // state and counts, and once over what was relocated and what not.
  async function relocateStatus() {
    clearTimeout(jobTimer);
    let s;
    try { s = await api('/api/torrents/relocate/status', { signal: stop.signal }); } catch (e) {
      if (e.name !== 'AbortError' && e.code !== 'torrent_client_unavailable') relocateJob.replaceChildren(el('p', { class: 'note error' }, readable(e)));
      return;
    }
    drawJob(s);
    if (s.state === 'running' && !stop.signal.aborted) jobTimer = setTimeout(relocateStatus, 2000);
  }
  function drawJob(s) {
    if (s.state === 'idle') { relocateJob.replaceChildren(); return; }
    const relocated = s.relocated || [];
    const notFound = s.not_found || [];
    const kind = { running: 'warn', completed: 'ok', failed: 'err', cancelled: 'muted' }[s.state] || 'muted';
    relocateJob.replaceChildren(el('div', { class: 'toolbar' }, chip(t('job.' + s.state), kind),
      el('span', { class: 'note' }, t('atr.job', { state: t('job.' + s.state), checked: s.checked ?? 0, total: s.total ?? 0,
        relocated: relocated.length, notFound: notFound.length })),
      s.finished_at ? el('span', { class: 'note' }, formatDate(s.finished_at)) : ''),
    s.state === 'running' ? progress(s.checked || 0, s.total || 0) : '',
    s.error ? el('p', { class: 'note error' }, s.error) : '',
    s.truncated ? el('p', { class: 'note' }, t('atr.truncated')) : '',
    relocated.length ? el('div', {}, el('h3', {}, t('atr.relocated') + ': ' + relocated.length),
      table([{ label: 'atr.name', cell: (x) => x.name }, { label: 'atr.to', class: 'path', cell: (x) => x.to }], relocated)) : '',
    notFound.length ? el('div', {}, el('h3', {}, t('atr.notFound') + ': ' + notFound.length),
      table([{ label: 'atr.name', cell: (x) => x.name || x.hash }], notFound)) : '',
    s.errors && s.errors.length ? el('div', {}, el('h3', {}, t('atr.errors')), table([
      { label: 'atr.name', cell: (x) => x.name || x.hash }, { label: 'atr.reason', cell: (x) => x.error }], s.errors)) : '');
  }
  const runRelocate = button('atr.runRelocate', async () => {
    const list = dirs.value.split('\n').map((x) => x.trim()).filter(Boolean);
    const r = await api('/api/torrents/relocate', { method: 'POST', body: list.length ? { dirs: list } : {} });
    toast(r.status === 'started' ? t('admin.started')
      : t('atr.relocated') + ': ' + r.relocated.length + ' · ' + t('atr.notFound') + ': ' + r.not_found.length, 'info');
    await relocateStatus();
    refresh();
  }, { kind: 'primary' });
  runRelocate.id = 'atr-run-relocate';

  // ---- categories ----
  const plan = el('div', { id: 'atr-plan' });
  const apply = button('atr.apply', async ({ keep }) => {
    const r = await api('/api/torrents/assign-categories', { method: 'POST', body: { dry_run: false } });
    drawPlan(r);
    keep(); // an applied plan is not applied twice: the next dry run enables it
    toast(t('atr.applied') + ': ' + r.assigned.length, 'info');
    refresh();
  }, { kind: 'primary' });
  apply.id = 'atr-apply';
  apply.disabled = true;
  const dryRun = button('atr.dryRun', async () => {
    const r = await api('/api/torrents/assign-categories', { method: 'POST', body: { dry_run: true } });
    drawPlan(r);
  });
  dryRun.id = 'atr-dry-run';
  function drawPlan(r) {
    plan.dataset.dryRun = String(r.dry_run);
    // Apply is for a plan with something in it.
    apply.disabled = !r.dry_run || !r.assigned.length;
    plan.replaceChildren(
      el('h3', {}, t(r.dry_run ? 'atr.plan' : 'atr.applied')),
      r.assigned.length ? table([
        { label: 'atr.name', cell: (x) => x.name },
        { label: 'atr.category', cell: (x) => chip(x.category, 'ok') },
        { label: 'atr.entry', cell: (x) => x.entry_title + ' #' + x.entry_id },
        { label: 'atr.score', class: 'num', cell: (x) => x.score.toFixed(2) },
      ], r.assigned) : el('p', { class: 'note' }, t('atr.nothingPlanned')),
      r.unmatched.length ? el('div', {}, el('h3', {}, t('atr.unmatched') + ': ' + r.unmatched.length), table([
        { label: 'atr.name', cell: (x) => x.name },
        { label: 'atr.parsed', cell: (x) => x.title || '—' },
        { label: 'atr.reason', cell: (x) => t('reason.' + x.reason) },
      ], r.unmatched)) : '',
      el('p', { class: 'note' }, t('atr.skipped', { n: r.skipped })));
  }

  // ---- search ----
  const query = el('input', { type: 'search', id: 'atr-query', placeholder: t('atr.query'), 'aria-label': t('atr.query') });
  const category = el('select', { id: 'atr-category', 'aria-label': t('atr.category') },
    el('option', { value: '' }, t('atr.anyCategory')), el('option', { value: 'movies' }, t('atr.movies')), el('option', { value: 'series' }, t('atr.series')));
  const find = el('button', { type: 'submit', class: 'btn primary', id: 'atr-find' }, t('atr.find'));
  const searchForm = el('form', { class: 'toolbar' }, query, category, find);
  const results = el('div', { id: 'atr-results' });
  let found = [];
  let failed = '';
  let foundOffset = 0;
  searchForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    action(find, async () => {
      const r = await search(query.value.trim(), category.value);
      found = r.list;
      failed = r.failed;
      foundOffset = 0;
      drawResults();
    });
  });
  function drawResults() {
    const page = found.slice(foundOffset, foundOffset + searchPage);
    results.replaceChildren(
      el('p', { class: 'note' }, t('atr.found', { n: formatNumber(found.length) }), failed ? ' · ' + t('atr.failedIndexers', { names: failed }) : ''),
      table([
        { label: 'atr.name', cell: (x) => el('div', { class: 'atr-name' }, el('div', { class: 'title' }, x.title),
          x.in_library ? chip(x.library_entry ? t('atr.inLibraryAs', { title: x.library_entry.title }) : t('atr.inLibrary'), 'ok') : '',
          x.download_volume_factor === 0 ? chip(t('atr.freeleech'), 'warn') : '',
          x.parsed && x.parsed.quality ? chip(x.parsed.quality) : '') },
        { label: 'atr.size', class: 'num', cell: (x) => formatBytes(x.size) },
        { label: 'atr.seeders', class: 'num', cell: (x) => formatNumber(x.seeders) + ' / ' + (x.leechers === null ? '—' : formatNumber(x.leechers)) },
        { label: 'atr.indexer', cell: (x) => x.indexer },
        { label: 'atr.published', cell: (x) => formatDate(x.published) },
        { label: '', cell: (x) => button('atr.add', () => add(x.magnet || x.download_url, x.indexer + ': ' + x.title)) },
      ], page, 'lib.nothing'),
      found.length > searchPage ? pager({ total: found.length, limit: searchPage, offset: foundOffset, onPage: (o) => { foundOffset = o; drawResults(); } }) : '');
    for (const [i, row] of [...results.querySelectorAll('tbody tr')].entries()) if (page[i]) row.dataset.inLibrary = String(!!page[i].in_library);
  }

  // The tab shows once the list and the relocation's state are in.
  await Promise.all([refresh(), relocateStatus()]);
  root.append(el('div', { class: 'atr' },
    section('atr.list', down, listStatus, listBox),
    section('atr.add', linkForm, field('atr.file', file), el('p', { class: 'note' }, t('atr.fileHint'))),
    section('atr.search', searchForm, results),
    el('div', { class: 'cols' },
      section('atr.categories', el('p', { class: 'note' }, t('atr.categoriesHint')), el('div', { class: 'toolbar' }, dryRun, apply), plan),
      section('atr.relocate', el('p', { class: 'note' }, t('atr.relocateHint')), field('atr.dirs', dirs), el('div', { class: 'toolbar' }, runRelocate),
        el('div', { id: 'atr-relocate' }, relocateJob)))));

  return () => { stop.abort(); clearTimeout(timer); clearTimeout(jobTimer); };
}

/**
 * search asks GET /api/torrents/search and answers {list, failed}: the
 * results and the indexers that did not answer (X-Failed-Indexers).
 */
async function search(query, category) {
  const q = new URLSearchParams({ query });
  if (category) q.set('category', category);
  const r = await api('/api/torrents/search?' + q, { response: true });
  return { list: r.body, failed: r.headers.get('X-Failed-Indexers') || '' };
}

// ---- .torrent files ----

/** base64 of bytes, as encoding/json reads a []byte. */
function base64(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}
