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
// POST /download takes a link only ({"url"}: a magnet or an http(s)
// address), so a .torrent file is read here: its info dictionary's SHA-1
// (the info-hash), its name and trackers become a magnet link. The client
// then fetches the metadata from peers, as for any magnet.
import { t, has, addStrings, currentLang } from './i18n.js';
import { api, token, ApiError, readable, signIn } from './api.js';
import { el, toast, showError } from './ui.js';
import { section, table, pager, button, action, progress, field, chip, formatBytes, formatDate, formatNumber } from './admin-kit.js';

addStrings({
  ru: {
    'atr.list': 'Загрузки', 'atr.name': 'Название', 'atr.state': 'Состояние', 'atr.progress': 'Готово', 'atr.size': 'Размер',
    'atr.speed': 'Скорость', 'atr.eta': 'Осталось', 'atr.added': 'Добавлен', 'atr.category': 'Категория',
    'atr.count': 'Торрентов: {n} · обновляется каждые 5 с', 'atr.updated': 'обновлено {at}',
    'atr.down': 'Торрент-клиент недоступен', 'atr.downHint': 'Проверьте, что qBittorrent запущен и адрес, логин и пароль в настройках torrent_client верны. Список обновится сам.',
    'atr.add': 'Добавить', 'atr.link': 'Magnet-ссылка или адрес .torrent', 'atr.addLink': 'Добавить ссылку',
    'atr.file': 'Файл .torrent', 'atr.fileHint': 'Файл читается в браузере и отправляется как magnet-ссылка: метаданные клиент получит от пиров.',
    'atr.added.ok': 'Добавлено: {hash}', 'atr.badFile': 'Это не файл .torrent: {why}', 'atr.v2only': 'Торрент только версии 2: добавьте его magnet-ссылкой или по адресу',
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
    'tstate.Downloading': 'Загрузка', 'tstate.Seeding': 'Раздача', 'tstate.Stalled': 'Нет пиров', 'tstate.Paused': 'Пауза',
    'tstate.Completed': 'Готово', 'tstate.Queued': 'В очереди', 'tstate.Checking': 'Проверка', 'tstate.Moving': 'Перемещение',
    'tstate.Metadata': 'Метаданные', 'tstate.MissingFiles': 'Нет файлов', 'tstate.Error': 'Ошибка',
  },
  en: {
    'atr.list': 'Downloads', 'atr.name': 'Name', 'atr.state': 'State', 'atr.progress': 'Done', 'atr.size': 'Size',
    'atr.speed': 'Speed', 'atr.eta': 'Left', 'atr.added': 'Added', 'atr.category': 'Category',
    'atr.count': 'Torrents: {n} · refreshed every 5 s', 'atr.updated': 'updated {at}',
    'atr.down': 'The torrent client is unavailable', 'atr.downHint': 'Check that qBittorrent runs and that the address, user and password of torrent_client are right. The list refreshes by itself.',
    'atr.add': 'Add', 'atr.link': 'Magnet link or .torrent address', 'atr.addLink': 'Add the link',
    'atr.file': '.torrent file', 'atr.fileHint': 'The file is read in the browser and sent as a magnet link: the client gets its metadata from peers.',
    'atr.added.ok': 'Added: {hash}', 'atr.badFile': 'Not a .torrent file: {why}', 'atr.v2only': 'A version 2 only torrent: add it by its magnet link or address',
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
    'tstate.Downloading': 'Downloading', 'tstate.Seeding': 'Seeding', 'tstate.Stalled': 'Stalled', 'tstate.Paused': 'Paused',
    'tstate.Completed': 'Completed', 'tstate.Queued': 'Queued', 'tstate.Checking': 'Checking', 'tstate.Moving': 'Moving',
    'tstate.Metadata': 'Metadata', 'tstate.MissingFiles': 'Missing files', 'tstate.Error': 'Error',
  },
});

const refreshMs = 5000;
const listPage = 25;
const searchPage = 20;
const stateKind = {
  Downloading: 'ok', Seeding: 'ok', Completed: 'ok', Stalled: 'warn', Paused: 'muted', Queued: 'muted',
  Checking: 'warn', Moving: 'warn', Metadata: 'warn', MissingFiles: 'err', Error: 'err',
};

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
      { label: 'atr.state', cell: (x) => {
        const c = chip(has('tstate.' + x.state) ? t('tstate.' + x.state) : x.state, stateKind[x.state] || 'muted');
        c.title = x.client_state;
        c.dataset.state = x.state;
        return c;
      } },
      { label: 'atr.progress', class: 'atr-progress', cell: (x) => progress(Math.round(x.progress * 1000), 1000, (x.progress * 100).toFixed(1) + ' %') },
      { label: 'atr.size', class: 'num', cell: (x) => formatBytes(x.size) },
      { label: 'atr.speed', class: 'num', cell: (x) => x.download_speed ? formatBytes(x.download_speed) + '/s' : '—' },
      { label: 'atr.eta', class: 'num', cell: (x) => eta(x.eta) },
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
      const magnet = magnetFromTorrent(new Uint8Array(await f.arrayBuffer()));
      await add(magnet, f.name);
    } finally {
      file.value = '';
    }
  }));

  async function add(url, source) {
    const r = await api('/api/torrents/download', { method: 'POST', body: { url, source: 'admin panel: ' + source } });
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
  const apply = button('atr.apply', async () => {
    const r = await api('/api/torrents/assign-categories', { method: 'POST', body: { dry_run: false } });
    drawPlan(r);
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
    // Apply is for a plan with something in it; action() enables the
    // button it ran for when it ends, so this is decided after that.
    setTimeout(() => { apply.disabled = !r.dry_run || !r.assigned.length; });
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

const eta = (s) => {
  if (s === null || s === undefined) return '—';
  if (s >= 86400) return Math.floor(s / 86400) + 'd ' + Math.floor((s % 86400) / 3600) + 'h';
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? h + 'h ' + m + 'm' : m + 'm ' + (s % 60) + 's';
};

/**
 * search asks GET /api/torrents/search and answers {list, failed}: the
 * results and the indexers that did not answer (X-Failed-Indexers, which
 * api() does not show), so the request is made here, with the header.
 */
async function search(query, category) {
  const q = new URLSearchParams({ query });
  if (category) q.set('category', category);
  let r;
  try {
    r = await fetch('/api/torrents/search?' + q, { headers: { Authorization: 'Bearer ' + token() } });
  } catch {
    throw new ApiError(0, 'network', t('err.network'));
  }
  if (!r.ok) {
    const body = await r.json().catch(() => null);
    const e = (body && body.error) || {};
    if (r.status === 401) signIn();
    throw new ApiError(r.status, e.code || 'http_' + r.status, e.message || r.statusText, e.fields);
  }
  return { list: await r.json(), failed: r.headers.get('X-Failed-Indexers') || '' };
}

// ---- .torrent files ----

/**
 * magnetFromTorrent reads a bencoded .torrent and answers its magnet link:
 * xt=urn:btih: the SHA-1 of the info dictionary's own bytes (a v1 or
 * hybrid torrent), dn its name, tr every tracker. Throws a readable Error
 * for anything else.
 */
export function magnetFromTorrent(bytes) {
  let top;
  try {
    top = decode(bytes);
  } catch (e) {
    throw new Error(t('atr.badFile', { why: e.message }));
  }
  const info = top.value instanceof Map ? top.value.get('info') : null;
  if (!info || !(info.value instanceof Map)) throw new Error(t('atr.badFile', { why: 'no info dictionary' }));
  if (!info.value.has('pieces')) throw new Error(t('atr.v2only'));
  const hash = hex(sha1(bytes.subarray(info.start, info.end)));
  const text = (v) => (v && v.value instanceof Uint8Array ? new TextDecoder().decode(v.value) : '');
  const parts = ['xt=urn:btih:' + hash];
  const name = text(info.value.get('name.utf-8')) || text(info.value.get('name'));
  if (name) parts.push('dn=' + encodeURIComponent(name));
  const trackers = new Set();
  if (top.value.get('announce')) trackers.add(text(top.value.get('announce')));
  const tiers = top.value.get('announce-list');
  if (tiers && Array.isArray(tiers.value)) {
    for (const tier of tiers.value) if (Array.isArray(tier.value)) for (const tr of tier.value) trackers.add(text(tr));
  }
  let magnet = 'magnet:?' + parts.join('&');
  for (const tr of trackers) {
    const next = magnet + '&tr=' + encodeURIComponent(tr);
    if (!tr || next.length > 16000) continue; // the API takes links of up to 16384 characters
    magnet = next;
  }
  return magnet;
}

// decode reads one bencoded value at the start of bytes and answers
// {value, start, end} (dictionaries are Maps of such, lists arrays, byte
// strings Uint8Arrays, integers numbers), so the info dictionary's exact
// bytes can be hashed.
function decode(bytes) {
  let pos = 0;
  const fail = (why) => { throw new Error(why + ' at byte ' + pos); };
  function value(depth) {
    if (depth > 64) fail('nested too deep');
    const start = pos;
    const c = bytes[pos];
    if (c === 0x64) { // d
      pos++;
      const m = new Map();
      while (bytes[pos] !== 0x65) {
        if (pos >= bytes.length) fail('unterminated dictionary');
        const k = value(depth + 1);
        if (!(k.value instanceof Uint8Array)) fail('dictionary key not a string');
        m.set(new TextDecoder().decode(k.value), value(depth + 1));
      }
      pos++;
      return { value: m, start, end: pos };
    }
    if (c === 0x6c) { // l
      pos++;
      const l = [];
      while (bytes[pos] !== 0x65) {
        if (pos >= bytes.length) fail('unterminated list');
        l.push(value(depth + 1));
      }
      pos++;
      return { value: l, start, end: pos };
    }
    if (c === 0x69) { // i…e
      const e = bytes.indexOf(0x65, pos);
      if (e < 0) fail('unterminated integer');
      const s = new TextDecoder().decode(bytes.subarray(pos + 1, e));
      if (!/^-?\d+$/.test(s)) fail('bad integer');
      pos = e + 1;
      return { value: Number(s), start, end: pos };
    }
    if (c >= 0x30 && c <= 0x39) { // <length>:<bytes>
      const colon = bytes.indexOf(0x3a, pos);
      if (colon < 0 || colon - pos > 10) fail('bad string length');
      const n = Number(new TextDecoder().decode(bytes.subarray(pos, colon)));
      if (!Number.isSafeInteger(n) || colon + 1 + n > bytes.length) fail('string runs past the end');
      pos = colon + 1 + n;
      return { value: bytes.subarray(colon + 1, pos), start, end: pos };
    }
    return fail('unexpected byte');
  }
  const v = value(0);
  if (pos !== bytes.length) fail('trailing bytes');
  return v;
}

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/**
 * sha1 of bytes (FIPS 180-4). Our own, because crypto.subtle exists only
 * on secure origins and the panel is often opened as http://<LAN address>.
 */
export function sha1(bytes) {
  const len = bytes.length;
  const words = new Uint32Array((((len + 8) >> 6) + 1) * 16);
  for (let i = 0; i < len; i++) words[i >> 2] |= bytes[i] << (24 - (i % 4) * 8);
  words[len >> 2] |= 0x80 << (24 - (len % 4) * 8);
  words[words.length - 1] = len * 8; // the bit length's low word (Uint32Array keeps it mod 2^32)
  words[words.length - 2] = Math.floor(len / 0x20000000);
  let [a, b, c, d, e] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
  const w = new Uint32Array(80);
  for (let blk = 0; blk < words.length; blk += 16) {
    for (let i = 0; i < 16; i++) w[i] = words[blk + i];
    for (let i = 16; i < 80; i++) { const x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]; w[i] = (x << 1) | (x >>> 31); }
    let [A, B, C, D, E] = [a, b, c, d, e];
    for (let i = 0; i < 80; i++) {
      const f = i < 20 ? (B & C) | (~B & D) : i < 40 ? B ^ C ^ D : i < 60 ? (B & C) | (B & D) | (C & D) : B ^ C ^ D;
      const k = i < 20 ? 0x5a827999 : i < 40 ? 0x6ed9eba1 : i < 60 ? 0x8f1bbcdc : 0xca62c1d6;
      const tmp = (((A << 5) | (A >>> 27)) + f + E + k + w[i]) >>> 0;
      E = D; D = C; C = (B << 30) | (B >>> 2); B = A; A = tmp;
    }
    a = (a + A) >>> 0; b = (b + B) >>> 0; c = (c + C) >>> 0; d = (d + D) >>> 0; e = (e + E) >>> 0;
  }
  const out = new Uint8Array(20);
  [a, b, c, d, e].forEach((v, i) => { out[i * 4] = v >>> 24; out[i * 4 + 1] = v >>> 16; out[i * 4 + 2] = v >>> 8; out[i * 4 + 3] = v; });
  return out;
}
