// The admin panel's Library tab: the catalogue (search, filters, a page
// of 50 at a time), one entry's details with its children, its edit form
// and "play in a room"; the library folders (/roots); scan, audit,
// duplicate groups and AI classification, live from the panel's events.
// Nothing is read whole: the list asks one page and its X-Total-Count, so
// a library of 100 000 entries costs what a library of 100 does. Every
// action says how it went (a toast: success, or the API's own message).
import { t, addStrings, currentLang } from './i18n.js';
import { api, thumbnail, readable, describe, ApiError } from './api.js';
import { el, toast, entryTitle } from './ui.js';
import { connectRoom } from './room.js';
import { section, table, pager, button, action, progress, field, chip, option, select, fill, fieldLabel, formatBytes, formatDate, formatNumber } from './admin-kit.js';

const pageSize = 50;
const debounceMs = 300;

// The fixed category list of API.md §3: slug, Russian, English.
const categories = [
  ['action', 'Боевики', 'Action'], ['comedy', 'Комедии', 'Comedy'], ['drama', 'Драмы', 'Drama'],
  ['thriller', 'Триллеры', 'Thriller'], ['horror', 'Ужасы', 'Horror'], ['sci_fi', 'Фантастика', 'Science fiction'],
  ['fantasy', 'Фэнтези', 'Fantasy'], ['adventure', 'Приключения', 'Adventure'], ['crime', 'Криминал', 'Crime'],
  ['detective', 'Детективы', 'Mystery'], ['romance', 'Мелодрамы', 'Romance'], ['animation', 'Мультфильмы', 'Animation'],
  ['anime', 'Аниме', 'Anime'], ['documentary', 'Документальные', 'Documentary'], ['family', 'Семейные', 'Family'],
  ['history', 'Исторические', 'History'], ['war', 'Военные', 'War'], ['western', 'Вестерны', 'Western'],
  ['music', 'Музыка и концерты', 'Music'], ['tv_show', 'Телешоу', 'TV shows'],
];
const types = ['movie', 'series', 'season', 'episode'];

addStrings({
  ru: {
    'alib.catalogue': 'Каталог', 'alib.search': 'Поиск по названию',
    'alib.anyType': 'Любой тип', 'alib.anyCategory': 'Любая категория', 'alib.uncategorized': 'Без категории',
    'alib.anyDisk': 'Любой диск', 'alib.anyStatus': 'Любое состояние', 'alib.onlyOk': 'Файл на месте', 'alib.onlyMissing': 'Пропавшие',
    'alib.count': 'Записей: {n}', 'alib.title': 'Название', 'alib.year': 'Год', 'alib.type': 'Тип', 'alib.category': 'Категория',
    'alib.disk': 'Диск', 'alib.status': 'Состояние', 'alib.size': 'Размер', 'alib.path': 'Путь', 'alib.nothing': 'Ничего не найдено',
    'type.movie': 'фильм', 'type.series': 'сериал', 'type.season': 'сезон', 'type.episode': 'серия',
    'status.ok': 'на месте', 'status.missing': 'пропал',
    'alib.entry': 'Запись', 'alib.close': 'Закрыть', 'alib.edit': 'Изменить', 'alib.save': 'Сохранить', 'alib.cancel': 'Отмена',
    'alib.parent': 'К родителю', 'alib.edited': 'изменено вручную', 'alib.editedN': 'изменено вручную: {n}',
    'alib.seasons': 'Сезоны', 'alib.episodes': 'Серии', 'alib.seasonN': 'Сезон {n}', 'alib.episodeN': 'Серия {n}',
    'alib.noChange': 'Ничего не изменилось', 'alib.fixFields': 'Исправьте отмеченные поля',
    'alib.listHint': 'по одному в строке', 'alib.ratingHint': 'источник: оценка, по одному в строке', 'alib.intsHint': 'числа через запятую',
    'alib.badInts': 'нужны целые числа через запятую', 'alib.badRating': 'строки вида «imdb: 8.1»',
    'alib.play': 'Играть в комнате', 'alib.room': 'Комната', 'alib.sent': 'Отправлено в комнату {room}',
    'alib.roots': 'Папки библиотеки', 'alib.addRoot': 'Добавить папку', 'alib.remove': 'Убрать', 'alib.exists': 'есть',
    'alib.absent': 'нет на месте', 'alib.entries': 'Записей', 'alib.rootsHint': 'Сохранение заменяет весь список; сканирование берёт его сразу.',
    'alib.scan': 'Сканирование', 'alib.allDisks': 'Все диски', 'alib.startScan': 'Сканировать', 'alib.cancelScan': 'Остановить',
    'scan.idle': 'Не запускалось', 'scan.running': 'Идёт', 'scan.completed': 'Завершено', 'scan.cancelled': 'Отменено', 'scan.failed': 'Ошибка',
    'alib.scanCounts': 'файлов: {seen}, новых: {added}, обновлено: {updated}, пропало: {missing}',
    'alib.scanErrors': 'Не прочитано: {n}', 'alib.finished': 'Закончено: {at}',
    'alib.audit': 'Проверка', 'alib.runAudit': 'Проверить', 'alib.auditDone': 'Проверено записей: {checked}, проблем: {total} ({ms} мс)',
    'alib.kind': 'Вид', 'alib.detail': 'Подробности', 'alib.auditRunning': 'Проверка идёт: читаются диски…',
    'alib.auditElsewhere': 'Проверку запустили в другом месте (другой администратор или чат): список проблем покажет новая проверка.',
    'kind.missing_file': 'нет файла', 'kind.unregistered_file': 'файл не в каталоге', 'kind.incomplete_metadata': 'неполные данные',
    'kind.orphan': 'без родителя', 'kind.duplicate': 'дубликат',
    'alib.duplicates': 'Дубликаты', 'alib.findDuplicates': 'Найти дубликаты', 'alib.groups': 'Групп: {n}',
    'reason.same_title_year': 'одно название и год', 'reason.same_content': 'одинаковое содержимое',
    'alib.classify': 'Классификация ИИ', 'alib.startClassify': 'Заполнить описания', 'alib.model': 'Модель: {m}',
    'alib.classifyCounts': 'готово: {done} из {total}, не вышло: {failed}, пропущено: {skipped}, полей заполнено: {filled}',
    'alib.noModel': 'Нет модели ИИ: классификация недоступна.',
    'err.scan_running': 'Сканирование уже идёт', 'err.scan_not_running': 'Сканирование не идёт',
    'err.no_library_roots': 'Нет папок библиотеки: добавьте хотя бы одну', 'err.unknown_disk': 'Нет такого диска',
    'err.audit_running': 'Проверка уже идёт', 'err.classify_running': 'Классификация уже идёт',
    'err.invalid_category': 'Нет такой категории', 'err.invalid_type': 'Нет такого типа',
  },
  en: {
    'alib.catalogue': 'Catalogue', 'alib.search': 'Search titles',
    'alib.anyType': 'Any type', 'alib.anyCategory': 'Any category', 'alib.uncategorized': 'Uncategorized',
    'alib.anyDisk': 'Any disk', 'alib.anyStatus': 'Any state', 'alib.onlyOk': 'File present', 'alib.onlyMissing': 'Missing',
    'alib.count': 'Entries: {n}', 'alib.title': 'Title', 'alib.year': 'Year', 'alib.type': 'Type', 'alib.category': 'Category',
    'alib.disk': 'Disk', 'alib.status': 'State', 'alib.size': 'Size', 'alib.path': 'Path', 'alib.nothing': 'Nothing found',
    'type.movie': 'film', 'type.series': 'series', 'type.season': 'season', 'type.episode': 'episode',
    'status.ok': 'present', 'status.missing': 'missing',
    'alib.entry': 'Entry', 'alib.close': 'Close', 'alib.edit': 'Edit', 'alib.save': 'Save', 'alib.cancel': 'Cancel',
    'alib.parent': 'To the parent', 'alib.edited': 'edited by hand', 'alib.editedN': 'edited by hand: {n}',
    'alib.seasons': 'Seasons', 'alib.episodes': 'Episodes', 'alib.seasonN': 'Season {n}', 'alib.episodeN': 'Episode {n}',
    'alib.noChange': 'Nothing changed', 'alib.fixFields': 'Correct the marked fields',
    'alib.listHint': 'one per line', 'alib.ratingHint': 'source: score, one per line', 'alib.intsHint': 'numbers separated by commas',
    'alib.badInts': 'whole numbers separated by commas', 'alib.badRating': 'lines like "imdb: 8.1"',
    'alib.play': 'Play in a room', 'alib.room': 'Room', 'alib.sent': 'Sent to the room {room}',
    'alib.roots': 'Library folders', 'alib.addRoot': 'Add a folder', 'alib.remove': 'Remove', 'alib.exists': 'present',
    'alib.absent': 'not there', 'alib.entries': 'Entries', 'alib.rootsHint': 'Saving replaces the whole list; the next scan uses it at once.',
    'alib.scan': 'Scan', 'alib.allDisks': 'All disks', 'alib.startScan': 'Scan', 'alib.cancelScan': 'Stop',
    'scan.idle': 'Not run yet', 'scan.running': 'Running', 'scan.completed': 'Completed', 'scan.cancelled': 'Cancelled', 'scan.failed': 'Failed',
    'alib.scanCounts': 'files: {seen}, new: {added}, updated: {updated}, missing: {missing}',
    'alib.scanErrors': 'Unreadable: {n}', 'alib.finished': 'Finished: {at}',
    'alib.audit': 'Audit', 'alib.runAudit': 'Run the audit', 'alib.auditDone': 'Checked {checked} entries, {total} issues ({ms} ms)',
    'alib.kind': 'Kind', 'alib.detail': 'Detail', 'alib.auditRunning': 'Auditing: reading the disks…',
    'alib.auditElsewhere': 'This audit ran elsewhere (another administrator or the chat): run one here to list its issues.',
    'kind.missing_file': 'missing file', 'kind.unregistered_file': 'file not catalogued', 'kind.incomplete_metadata': 'incomplete metadata',
    'kind.orphan': 'orphan', 'kind.duplicate': 'duplicate',
    'alib.duplicates': 'Duplicates', 'alib.findDuplicates': 'Find duplicates', 'alib.groups': 'Groups: {n}',
    'reason.same_title_year': 'same title and year', 'reason.same_content': 'same content',
    'alib.classify': 'AI classification', 'alib.startClassify': 'Fill in descriptions', 'alib.model': 'Model: {m}',
    'alib.classifyCounts': 'done: {done} of {total}, failed: {failed}, skipped: {skipped}, fields filled: {filled}',
    'alib.noModel': 'No AI model: classification is unavailable.',
    'err.scan_running': 'A scan is already running', 'err.scan_not_running': 'No scan is running',
    'err.no_library_roots': 'No library folders: add at least one', 'err.unknown_disk': 'No such disk',
    'err.audit_running': 'An audit is already running', 'err.classify_running': 'Classification is already running',
    'err.invalid_category': 'No such category', 'err.invalid_type': 'No such type',
  },
});

const categoryName = (slug) => {
  const c = categories.find((x) => x[0] === slug);
  return c ? (currentLang() === 'ru' ? c[1] : c[2]) : slug || '—';
};
const statusChip = (s) => chip(t('status.' + s), s === 'ok' ? 'ok' : 'err');

export default async function mount(root, { user, onEvent, onLangChange }) {
  root.classList.add('alib');
  const stops = [];
  const list = catalogue(user);
  const scan = scanBlock();
  const cls = classifyBlock();
  const roots = rootsBlock((disks) => { list.setDisks(disks); scan.setDisks(disks); });
  const audit = auditBlock(list.open);
  const dups = duplicatesBlock(list.open);
  root.append(list.node, el('div', { class: 'cols' }, scan.node, cls.node), roots.node, audit.node, dups.node);
  // A language switch redraws the words of each part from what it holds:
  // the search, the page of results, the open entry, the reports stay.
  onLangChange?.(() => { list.relabel(); scan.relabel(); cls.relabel(); roots.relabel(); audit.redraw(); dups.relabel(); });
  stops.push(onEvent((ev) => {
    scan.event(ev);
    audit.event(ev);
    cls.event(ev);
    if (ev.event === 'scan_completed') { list.reload(); roots.reload(); }
    if (ev.event === 'classify_completed') list.reload();
  }));
  await Promise.all([list.reload(), roots.reload(), scan.reload(), cls.reload()]);
  return () => { for (const s of stops) s(); list.stop(); };
}

// ---- the catalogue: filters, one page, the entry's details -------------

function catalogue(user) {
  const st = { q: '', type: '', category: '', disk: '', status: '', offset: 0, disks: [] };
  let ctl = null;
  let timer = 0;
  const q = el('input', { id: 'lib-q', type: 'search', autocomplete: 'off' });
  const typeSel = el('select', { id: 'lib-type' });
  const catSel = el('select', { id: 'lib-category' });
  const diskSel = el('select', { id: 'lib-disk' });
  const statusSel = el('select', { id: 'lib-status' });
  // The filters' words, drawn again after a language switch with the
  // choices kept.
  function labelFilters() {
    q.placeholder = t('alib.search');
    q.setAttribute('aria-label', t('alib.search'));
    const redo = (sel, label, items) => {
      const keep = sel.value;
      sel.setAttribute('aria-label', label);
      sel.replaceChildren(...items.map(([v, txt]) => option(v, txt, keep)));
    };
    redo(typeSel, t('alib.type'), [['', t('alib.anyType')], ...types.map((x) => [x, t('type.' + x)])]);
    redo(catSel, t('alib.category'), [['', t('alib.anyCategory')], ...categories.map((c) => [c[0], categoryName(c[0])]), ['uncategorized', t('alib.uncategorized')]]);
    redo(diskSel, t('alib.disk'), [['', t('alib.anyDisk')], ...st.disks.map((d) => [d, d])]);
    redo(statusSel, t('alib.status'), [['', t('alib.anyStatus')], ['ok', t('alib.onlyOk')], ['missing', t('alib.onlyMissing')]]);
  }
  labelFilters();
  let shown = null; // the page on screen: {items, total}
  let entry = null; // the entry open (not being edited), or null
  const count = el('p', { id: 'lib-count', class: 'note' });
  const area = el('div', { id: 'lib-list' });
  const details = el('div', { id: 'lib-entry', class: 'entry', hidden: true });
  const node = section('alib.catalogue', el('div', { class: 'toolbar' }, q, typeSel, catSel, diskSel, statusSel), count, area, details);

  // Typing waits for a pause (and cancels the request before it): a
  // search per key would queue requests the person never reads.
  q.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(() => { st.q = q.value.trim(); st.offset = 0; reload(); }, debounceMs); });
  for (const [sel, key] of [[typeSel, 'type'], [catSel, 'category'], [diskSel, 'disk'], [statusSel, 'status']]) {
    sel.addEventListener('change', () => { st[key] = sel.value; st.offset = 0; reload(); });
  }

  async function reload() {
    if (ctl) ctl.abort();
    const mine = ctl = new AbortController();
    area.setAttribute('aria-busy', 'true');
    const query = new URLSearchParams({ limit: String(pageSize), offset: String(st.offset) });
    for (const k of ['q', 'type', 'category', 'disk', 'status']) if (st[k]) query.set(k, st[k]);
    try {
      const { items, total } = await api('/api/media/files?' + query, { total: true, signal: mine.signal });
      if (mine !== ctl) return;
      if (st.offset > 0 && st.offset >= total) { st.offset = Math.max(0, Math.floor((total - 1) / pageSize) * pageSize); return reload(); }
      await seasonsOf(items, mine.signal);
      if (mine !== ctl) return;
      draw(items, total);
    } catch (e) {
      if (e.name === 'AbortError') return;
      area.replaceChildren(el('p', { class: 'note error' }, readable(e)));
      toast(readable(e));
    } finally {
      if (mine === ctl) area.removeAttribute('aria-busy');
    }
  }

  // An episode's row names its season's number, which the list's entry
  // does not carry (only parent_id): the page's seasons are read once each
  // and kept while the tab is open. One that cannot be read leaves the
  // row with the episode's own number.
  const seasons = new Map(); // id → season entry, or null
  async function seasonsOf(items, signal) {
    const ids = [...new Set(items.filter((m) => m.media_type === 'episode' && m.parent_id && !seasons.has(m.parent_id)).map((m) => m.parent_id))];
    await Promise.all(ids.map((id) => api('/api/media/' + id, { signal }).then((s) => seasons.set(id, s), (e) => { if (e.name !== 'AbortError') seasons.set(id, null); })));
  }

  // rowTitle tells apart the rows of a series' seasons and episodes,
  // whose own title is mostly the series' name: "Dark · S01E02".
  function rowTitle(m) {
    const base = entryTitle(m);
    const two = (n) => String(n ?? '?').padStart(2, '0');
    if (m.media_type === 'season') return base + ' · ' + t('alib.seasonN', { n: m.number ?? '?' });
    if (m.media_type !== 'episode') return base;
    const season = seasons.get(m.parent_id);
    if (season && season.media_type === 'season') return base + ' · S' + two(season.number) + 'E' + two(m.number);
    return base + ' · ' + t('alib.episodeN', { n: m.number ?? '?' });
  }

  function draw(items, total) {
    shown = { items, total };
    count.textContent = t('alib.count', { n: formatNumber(total) });
    const tbl = table([
      { label: 'alib.title', cell: (m) => el('span', { class: 'title' }, rowTitle(m)) },
      { label: 'alib.year', cell: (m) => m.year ? String(m.year) : '—', class: 'num' },
      { label: 'alib.type', cell: (m) => t('type.' + m.media_type) },
      { label: 'alib.category', cell: (m) => categoryName(m.main_category), class: 'hide-sm' },
      { label: 'alib.disk', cell: (m) => m.disk_name || '—', class: 'hide-sm' },
      { label: 'alib.status', cell: (m) => statusChip(m.status) },
      { label: 'alib.size', cell: (m) => m.size === null || m.size === undefined ? '—' : formatBytes(m.size), class: 'num hide-sm' },
    ], items, 'alib.nothing');
    tbl.querySelectorAll('tbody tr').forEach((tr, i) => {
      const m = items[i];
      if (!m) return;
      tr.classList.add('clickable');
      tr.tabIndex = 0;
      tr.dataset.id = String(m.id);
      tr.addEventListener('click', () => open(m.id));
      tr.addEventListener('keydown', (e) => { if (e.key === 'Enter') open(m.id); });
    });
    area.replaceChildren(tbl, pager({ total, limit: pageSize, offset: st.offset, onPage: (o) => { st.offset = o; reload(); } }));
  }

  async function open(id) {
    details.hidden = false;
    details.replaceChildren(el('p', { class: 'note' }, t('lib.loading')));
    try {
      const e = await api('/api/media/' + id);
      showEntry(e);
      details.scrollIntoView({ block: 'nearest' });
    } catch (err) {
      details.replaceChildren(el('p', { class: 'note error' }, readable(err)));
      toast(readable(err));
    }
  }

  function showEntry(e) {
    entry = e;
    details.replaceChildren(entryView(e, { open, user, onEdit: () => { entry = null; details.replaceChildren(editForm(e, {
      onSaved: (updated) => { open(updated.id); reload(); }, onCancel: () => showEntry(e) })); },
    onClose: () => { entry = null; details.hidden = true; details.replaceChildren(); } }));
  }

  // relabel redraws the words: the filters, the page and the entry as
  // they are (an edit form keeps what is typed in it, labels and all).
  function relabel() {
    labelFilters();
    if (shown) draw(shown.items, shown.total);
    if (entry && !details.hidden) showEntry(entry);
  }

  function setDisks(disks) {
    st.disks = disks;
    labelFilters();
  }

  return { node, reload, open, setDisks, relabel, stop: () => { clearTimeout(timer); if (ctl) ctl.abort(); } };
}

// Every stored field of an entry, in the order of API.md §3.
const fieldOrder = ['id', 'title', 'title_ru', 'title_orig', 'year', 'media_type', 'main_category', 'status', 'disk_name', 'path',
  'size', 'modified_at', 'parent_id', 'number', 'num_of_seasons', 'num_episodes_per_season', 'episode_scan_skipped',
  'country', 'genres', 'directors', 'cast', 'rating', 'plot', 'atmosphere', 'why_watch', 'mood', 'final_verdict', 'can_stop_at',
  'quote', 'awards', 'facts', 'similar', 'edited_fields', 'created_at', 'updated_at'];

function showValue(key, v) {
  if (v === null || v === undefined || v === '') return '—';
  if (key === 'size') return formatBytes(v) + ' (' + formatNumber(v) + ')';
  if (key === 'media_type') return t('type.' + v);
  if (key === 'main_category') return categoryName(v);
  if (key === 'status') return statusChip(v);
  if (/_at$/.test(key)) return formatDate(v);
  if (Array.isArray(v)) return v.length ? v.join(', ') : '—';
  if (typeof v === 'object') { const e = Object.entries(v); return e.length ? e.map(([k, x]) => k + ': ' + x).join(', ') : '—'; }
  return String(v);
}

function childLabel(c) {
  const n = c.number ?? '?';
  const own = entryTitle(c);
  const head = c.media_type === 'season' ? t('alib.seasonN', { n }) : t('alib.episodeN', { n });
  return own && !own.startsWith('#') ? head + ' · ' + own : head;
}

function entryView(e, { open, user, onEdit, onClose }) {
  const edited = new Set(e.edited_fields || []);
  const img = el('img', { class: 'thumb', alt: '', hidden: true });
  if (e.status === 'ok') thumbnail(e.id).then((u) => { if (u) { img.src = u; img.hidden = false; } });
  const keys = [...fieldOrder, ...Object.keys(e).filter((k) => !fieldOrder.includes(k) && k !== 'children' && k !== 'user_state')];
  const kv = el('dl', { class: 'kv' }, keys.filter((k) => k in e).flatMap((k) => [
    el('dt', { title: k, dataset: { field: k } }, fieldLabel(k), edited.has(k) ? el('span', { class: 'edited-mark', title: t('alib.edited') }, ' ✎') : null),
    el('dd', { dataset: { field: k }, class: k === 'path' ? 'mono' : '' }, showValue(k, e[k]))]));
  const playable = (e.media_type === 'movie' || e.media_type === 'episode' || e.media_type === 'season' && e.episode_scan_skipped === 1) && e.status === 'ok';
  const actions = el('div', { class: 'row-actions' },
    el('button', { type: 'button', class: 'btn primary', id: 'lib-edit', onclick: onEdit }, t('alib.edit')),
    e.parent_id ? el('button', { type: 'button', class: 'btn', onclick: () => open(e.parent_id) }, t('alib.parent')) : null,
    el('button', { type: 'button', class: 'btn', id: 'lib-close', onclick: onClose }, t('alib.close')));
  const head = el('div', { class: 'entry-head' }, img, el('div', {},
    el('h3', { id: 'lib-entry-title' }, entryTitle(e), e.year ? ' (' + e.year + ')' : ''),
    el('p', { class: 'chips' }, chip(t('type.' + e.media_type)), ' ', statusChip(e.status), ' ',
      edited.size ? chip(t('alib.editedN', { n: [...edited].join(', ') }), 'warn') : null),
    actions, playable ? playForm(e, user) : null));
  return el('div', {}, head, kv, children(e, open));
}

function children(e, open) {
  const kids = e.children || [];
  if (!kids.length) return null;
  const item = (c) => el('li', {}, el('button', { type: 'button', class: 'link', dataset: { id: String(c.id) }, onclick: () => open(c.id) }, childLabel(c)),
    c.status === 'missing' ? [' ', statusChip('missing')] : null,
    c.children && c.children.length ? el('ul', {}, c.children.map(item)) : null);
  const title = kids[0].media_type === 'season' ? 'alib.seasons' : 'alib.episodes';
  return el('div', { class: 'children', id: 'lib-children' }, el('h3', {}, t(title)), el('ul', {}, kids.map(item)));
}

// Play in a room: the panel joins the room as a remote for a moment and
// sends play (API.md §6 has no HTTP command; the room answers a refusal
// — no player, a missing file — with an error event, and silence means
// the player got it).
function playForm(e, user) {
  const room = el('input', { id: 'lib-room', type: 'text', value: localStorage.getItem('mediateka_room') || user.email, 'aria-label': t('alib.room') });
  const b = el('button', { type: 'button', class: 'btn', id: 'lib-play' }, '▶ ' + t('alib.play'));
  b.addEventListener('click', () => {
    const r = room.value.trim() || user.email;
    action(b, () => playInRoom(r, e.id), t('alib.sent', { room: r }));
  });
  return el('div', { class: 'toolbar play' }, el('label', { class: 'inline' }, t('alib.room') + ' ', room), b);
}

function playInRoom(room, id) {
  return new Promise((resolve, reject) => {
    let done = false;
    let timer = 0;
    let conn = null;
    const finish = (err) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      setTimeout(() => conn && conn.close());
      if (err) reject(err); else resolve();
    };
    conn = connectRoom({
      role: 'remote', room,
      onMessage: (m) => { if (m.event === 'error') finish(new ApiError(400, m.code, m.message, m.fields)); },
      onState: (s) => {
        if (s.state === 'refused') finish(new ApiError(403, s.code, describe(s.code)));
        if (s.state === 'waiting') finish(new ApiError(0, 'network', t('err.network')));
      },
      onOpen: () => {
        if (done) return;
        conn.send({ event: 'play', file: 'media:' + id });
        timer = setTimeout(() => finish(), 1500);
      },
    });
  });
}

// ---- the edit form -------------------------------------------------------

// kind: text, long, int, list (one per line), ints, rating, type, category, bit.
const editable = [['title', 'text'], ['title_ru', 'text'], ['title_orig', 'text'], ['year', 'int'], ['media_type', 'type'],
  ['main_category', 'category'], ['country', 'text'], ['genres', 'list'], ['directors', 'list'], ['cast', 'list'], ['rating', 'rating'],
  ['plot', 'long'], ['atmosphere', 'long'], ['why_watch', 'long'], ['mood', 'text'], ['final_verdict', 'long'], ['can_stop_at', 'text'],
  ['quote', 'long'], ['awards', 'list'], ['facts', 'list'], ['similar', 'list'], ['number', 'int'], ['num_of_seasons', 'int'],
  ['num_episodes_per_season', 'ints'], ['episode_scan_skipped', 'bit'], ['parent_id', 'int']];

function toText(kind, v) {
  if (v === null || v === undefined) return '';
  if (kind === 'list') return v.join('\n');
  if (kind === 'ints') return v.join(', ');
  if (kind === 'rating') return Object.entries(v).map(([k, x]) => k + ': ' + x).join('\n');
  return String(v);
}

// fromText turns a control's text into the JSON value to send; a text it
// cannot read throws the message to show under the field.
function fromText(kind, s) {
  const v = s.trim();
  switch (kind) {
    case 'int': return v === '' ? null : Number(v);
    case 'bit': return s === '1' ? 1 : 0;
    case 'list': return s.split('\n').map((x) => x.trim()).filter(Boolean);
    case 'ints': {
      if (!v) return [];
      const out = v.split(/[,\s]+/).map(Number);
      if (out.some((n) => !Number.isInteger(n) || n < 0)) throw new Error(t('alib.badInts'));
      return out;
    }
    case 'rating': {
      const out = {};
      for (const line of s.split('\n').map((x) => x.trim()).filter(Boolean)) {
        const m = /^(.+?)\s*[:=]\s*(-?\d+(?:[.,]\d+)?)$/.exec(line);
        if (!m) throw new Error(t('alib.badRating'));
        out[m[1]] = Number(m[2].replace(',', '.'));
      }
      return out;
    }
    case 'category': return v;
    default: return v === '' ? null : v;
  }
}

// normal is the stored value as fromText would give it back, so an
// untouched control is never sent (and never marked as edited).
function normal(kind, v) {
  try { return JSON.stringify(fromText(kind, toText(kind, v))); } catch { return ''; }
}

function editForm(e, { onSaved, onCancel }) {
  const edited = new Set(e.edited_fields || []);
  const controls = {};
  const errors = {};
  const rows = editable.map(([key, kind]) => {
    let c;
    const value = toText(kind, e[key]);
    if (kind === 'long' || kind === 'list' || kind === 'rating') c = el('textarea', { rows: kind === 'long' ? 4 : 3 }, value);
    else if (kind === 'type') c = el('select', {}, types.map((x) => option(x, t('type.' + x), value)));
    else if (kind === 'category') {
      c = el('select', {}, option('', '—', value), categories.map((x) => option(x[0], categoryName(x[0]), value)));
      if (value && !categories.some((x) => x[0] === value)) c.append(option(value, value, value));
    } else if (kind === 'bit') c = el('select', {}, option('0', '0', value || '0'), option('1', '1', value || '0'));
    else c = el('input', { type: kind === 'int' ? 'number' : 'text', value, step: kind === 'int' ? '1' : undefined });
    c.name = key;
    c.id = 'edit-' + key;
    controls[key] = c;
    errors[key] = el('span', { class: 'field-error', id: 'err-' + key, hidden: true });
    const hint = { list: 'alib.listHint', rating: 'alib.ratingHint', ints: 'alib.intsHint' }[kind];
    return el('label', { class: 'field' + (edited.has(key) ? ' edited' : '') },
      el('span', { title: key }, fieldLabel(key), edited.has(key) ? el('span', { class: 'edited-mark' }, ' ✎ ' + t('alib.edited')) : null, hint ? ' (' + t(hint) + ')' : ''),
      c, errors[key]);
  });
  const formError = el('p', { class: 'note error', hidden: true });
  const save = el('button', { type: 'submit', class: 'btn primary', id: 'edit-save' }, t('alib.save'));
  const form = el('form', { class: 'edit-form', id: 'lib-edit-form', novalidate: true },
    el('h3', {}, t('alib.edit') + ': ' + entryTitle(e)), el('div', { class: 'edit-grid' }, rows), formError,
    el('div', { class: 'row-actions' }, save, el('button', { type: 'button', class: 'btn', onclick: onCancel }, t('alib.cancel'))));

  function mark(problems) {
    for (const k of Object.keys(errors)) { errors[k].hidden = true; errors[k].textContent = ''; controls[k].removeAttribute('aria-invalid'); }
    const other = [];
    for (const [name, msg] of Object.entries(problems)) {
      const k = name.split(/[[.]/)[0];
      if (errors[k]) {
        errors[k].textContent = (errors[k].textContent ? errors[k].textContent + '; ' : '') + msg;
        errors[k].hidden = false;
        controls[k].setAttribute('aria-invalid', 'true');
      } else other.push(name + ': ' + msg);
    }
    formError.hidden = !other.length;
    formError.textContent = other.join('; ');
    const first = Object.keys(problems).map((n) => controls[n.split(/[[.]/)[0]]).find(Boolean);
    if (first) first.focus();
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const body = {};
    const local = {};
    for (const [key, kind] of editable) {
      try {
        const v = fromText(kind, controls[key].value);
        if (JSON.stringify(v) !== normal(kind, e[key])) body[key] = v;
      } catch (err) { local[key] = err.message; }
    }
    if (Object.keys(local).length) { mark(local); toast(t('alib.fixFields')); return; }
    mark({});
    if (!Object.keys(body).length) { toast(t('alib.noChange'), 'info'); return; }
    action(save, async () => {
      try {
        const updated = await api('/api/media-admin/media/' + e.id, { method: 'PATCH', body });
        onSaved(updated);
      } catch (err) {
        if (err.fields) mark(err.fields);
        throw err;
      }
    }, t('admin.saved'));
  });
  return form;
}

// ---- library folders -----------------------------------------------------

function rootsBlock(onDisks) {
  const area = el('div', { id: 'roots' });
  const formError = el('p', { class: 'note error', hidden: true });
  let rows = []; // {path, disk, exists, entries, pathIn, diskIn, errPath, errDisk, err}
  const add = el('button', { type: 'button', class: 'btn', id: 'roots-add' }, '+ ' + t('alib.addRoot'));
  const save = el('button', { type: 'button', class: 'btn primary', id: 'roots-save' }, t('alib.save'));
  add.addEventListener('click', () => { rows.push(row({ path: '', disk: '', exists: null, entries: null })); draw(); rows.at(-1).pathIn.focus(); });
  save.addEventListener('click', () => action(save, async () => {
    const dirs = rows.map((r) => (r.diskIn.value.trim() ? { path: r.pathIn.value.trim(), disk: r.diskIn.value.trim() } : r.pathIn.value.trim()));
    try {
      shown(await api('/api/media-admin/roots', { method: 'PUT', body: { dirs } }));
    } catch (err) {
      mark(err.fields || {});
      throw err;
    }
  }, t('admin.saved')));
  const node = section('alib.roots', el('p', { class: 'note' }, t('alib.rootsHint')), area, formError, el('div', { class: 'row-actions' }, add, save));

  function row(d) {
    const r = { ...d, pathIn: el('input', { type: 'text', value: d.path, class: 'mono', 'aria-label': t('alib.path'), name: 'path' }),
      diskIn: el('input', { type: 'text', value: d.disk, 'aria-label': t('alib.disk'), name: 'disk' }),
      errPath: el('span', { class: 'field-error', hidden: true }), errDisk: el('span', { class: 'field-error', hidden: true }),
      err: el('span', { class: 'field-error', hidden: true }) };
    return r;
  }

  function draw() {
    const tbl = table([
      { label: 'alib.path', cell: (r) => el('div', { class: 'cell-field' }, r.pathIn, r.errPath, r.err), class: 'wide' },
      { label: 'alib.disk', cell: (r) => el('div', { class: 'cell-field' }, r.diskIn, r.errDisk) },
      { label: 'alib.status', cell: (r) => r.exists === null ? '' : chip(t(r.exists ? 'alib.exists' : 'alib.absent'), r.exists ? 'ok' : 'err') },
      { label: 'alib.entries', cell: (r) => r.entries === null ? '' : formatNumber(r.entries), class: 'num' },
      { label: '', cell: (r) => el('button', { type: 'button', class: 'btn danger', onclick: () => { rows = rows.filter((x) => x !== r); draw(); } }, t('alib.remove')) },
    ], rows);
    tbl.querySelectorAll('tbody tr').forEach((tr) => tr.classList.add('root-row'));
    area.replaceChildren(tbl);
  }

  function mark(fields) {
    const other = [];
    for (const r of rows) for (const s of [r.errPath, r.errDisk, r.err]) { s.hidden = true; s.textContent = ''; }
    for (const [name, msg] of Object.entries(fields)) {
      const m = /^dirs\[(\d+)\](?:\.(path|disk))?$/.exec(name);
      const r = m && rows[Number(m[1])];
      if (!r) { other.push(name + ': ' + msg); continue; }
      const s = m[2] === 'path' ? r.errPath : m[2] === 'disk' ? r.errDisk : r.err;
      s.textContent = msg;
      s.hidden = false;
    }
    formError.hidden = !other.length;
    formError.textContent = other.join('; ');
  }

  function shown(res) {
    rows = (res.dirs || []).map(row);
    formError.hidden = true;
    draw();
    onDisks([...new Set((res.dirs || []).map((d) => d.disk))]);
  }

  async function reload() {
    try { shown(await api('/api/media-admin/roots')); } catch (e) { area.replaceChildren(el('p', { class: 'note error' }, readable(e))); toast(readable(e)); }
  }
  return { node, reload, relabel: () => { for (const r of rows) { r.pathIn.setAttribute('aria-label', t('alib.path')); r.diskIn.setAttribute('aria-label', t('alib.disk')); } draw(); } };
}

// ---- scan ----------------------------------------------------------------

function scanBlock() {
  const disk = select('scan-disk', [['', t('alib.allDisks')]], '', t('alib.disk'));
  const box = el('div', { id: 'scan-box' });
  let st = { state: 'idle' };
  const start = el('button', { type: 'button', class: 'btn primary', id: 'scan-start' }, t('alib.startScan'));
  const cancel = el('button', { type: 'button', class: 'btn', id: 'scan-cancel' }, t('alib.cancelScan'));
  let events = 0; // scan events seen: the answer to a start may come after them
  start.addEventListener('click', () => action(start, async () => {
    const before = events;
    await api('/api/media-admin/scan', { method: 'POST', body: disk.value ? { disk: disk.value } : {} });
    // Drawn as running only while no event told more: a short scan may
    // have started and completed before the 202 arrived.
    if (events === before && st.state !== 'running') draw({ ...st, state: 'running', files_seen: 0, added: 0, updated: 0, missing: 0, current_path: null });
  }, t('admin.started')));
  cancel.addEventListener('click', () => action(cancel, () => api('/api/media-admin/scan', { method: 'DELETE' }), t('admin.cancelled')));
  const node = section('alib.scan', el('div', { class: 'toolbar' }, disk, start, cancel), box);

  function draw(next) {
    st = next;
    const running = st.state === 'running';
    const done = st.state === 'completed';
    const label = t('alib.scanCounts', { seen: formatNumber(st.files_seen), added: formatNumber(st.added), updated: formatNumber(st.updated), missing: formatNumber(st.missing) });
    const kind = { completed: 'ok', running: 'warn', failed: 'err', cancelled: 'muted' }[st.state] || 'muted';
    box.dataset.state = st.state;
    fill(box,
      el('p', {}, chip(t('scan.' + st.state) , kind), st.failure ? el('span', { class: 'error' }, ' ' + st.failure) : null),
      st.state === 'idle' ? null : progress(done || st.state === 'cancelled' || st.state === 'failed' ? 1 : 0, running ? 0 : 1, label),
      running && st.current_path ? el('p', { class: 'note mono path-line' }, st.current_path) : null,
      st.finished_at && !running ? el('p', { class: 'note' }, t('alib.finished', { at: formatDate(st.finished_at) })) : null,
      st.error_count ? el('details', {}, el('summary', {}, t('alib.scanErrors', { n: formatNumber(st.error_count) })),
        el('ul', { class: 'mono' }, (st.errors || []).map((x) => el('li', {}, x.path + ': ' + x.error)))) : null);
    cancel.disabled = !running;
  }

  function event(ev) {
    if (/^scan_/.test(ev.event || '')) events++;
    if (ev.event === 'scan_started') draw({ state: 'running', files_seen: 0, added: 0, updated: 0, missing: 0 });
    else if (ev.event === 'scan_progress') draw({ ...st, state: 'running', files_seen: ev.files_seen, added: ev.added, updated: ev.updated, current_path: ev.current_path });
    else if (ev.event === 'scan_completed') {
      draw({ ...st, state: ev.state, files_seen: ev.files_seen, added: ev.added, updated: ev.updated, missing: ev.missing, error_count: ev.errors, finished_at: ev.at });
      reload(); // the status has the unreadable paths
    }
  }

  async function reload() {
    try { draw(await api('/api/media-admin/scan/status')); } catch (e) { box.replaceChildren(el('p', { class: 'note error' }, readable(e))); toast(readable(e)); }
  }

  function setDisks(disks) {
    const keep = disk.value;
    disk.replaceChildren(option('', t('alib.allDisks'), keep), ...disks.map((d) => option(d, d, keep)));
  }
  draw(st);
  const relabel = () => { setDisks([...disk.options].slice(1).map((o) => o.value)); draw(st); };
  return { node, reload, event, setDisks, relabel };
}

// ---- classification ------------------------------------------------------

function classifyBlock() {
  const box = el('div', { id: 'classify-box' });
  const note = el('p', { id: 'classify-note', class: 'note error', hidden: true });
  let st = { state: 'idle' };
  const start = el('button', { type: 'button', class: 'btn primary', id: 'classify-start' }, t('alib.startClassify'));
  start.addEventListener('click', () => action(start, async ({ keep }) => {
    try {
      await api('/api/media-admin/classify', { method: 'POST', body: {} });
      note.hidden = true;
      // Its classify_started event may have come first: a running job
      // keeps the button disabled until its classify_completed.
      if (st.state === 'running') keep();
    } catch (e) {
      // No model is not a passing failure: it stays said in the block.
      if (e.code === 'ai_unavailable') { note.textContent = t('alib.noModel') + ' ' + e.message; note.hidden = false; }
      throw e;
    }
  }, t('admin.started')));
  const node = section('alib.classify', el('div', { class: 'toolbar' }, start), note, box);

  function draw(next) {
    st = next;
    const done = (st.indexed || 0) + (st.failed || 0) + (st.skipped || 0);
    const running = st.state === 'running';
    box.dataset.state = st.state;
    const kind = { completed: 'ok', running: 'warn', failed: 'err' }[st.state] || 'muted';
    fill(box,
      el('p', {}, chip(t('scan.' + st.state), kind), st.provider ? el('span', { class: 'note' }, ' ' + t('alib.model', { m: st.provider })) : null),
      st.state === 'idle' ? null : progress(done, st.total || (running ? 0 : 1), t('alib.classifyCounts', { done: formatNumber(done),
        total: formatNumber(st.total), failed: formatNumber(st.failed), skipped: formatNumber(st.skipped), filled: formatNumber(st.fields_filled) })),
      st.error ? el('p', { class: 'error' }, st.error) : null,
      st.errors && st.errors.length ? el('details', {}, el('summary', {}, t('alib.scanErrors', { n: st.errors.length })),
        el('ul', {}, st.errors.map((x) => el('li', {}, (x.title || '#' + x.id) + ': ' + x.error)))) : null);
    start.disabled = running;
  }

  function event(ev) {
    if (ev.event === 'classify_started') draw({ state: 'running', provider: ev.model, total: 0, indexed: 0, failed: 0, skipped: 0, fields_filled: 0 });
    else if (ev.event === 'classify_progress' || ev.event === 'classify_completed') {
      draw({ ...st, state: ev.state || 'running', provider: ev.model, total: ev.total, indexed: ev.classified, failed: ev.failed,
        skipped: ev.skipped, fields_filled: ev.fields_filled });
      if (ev.event === 'classify_completed') reload();
    }
  }

  async function reload() {
    try { draw(await api('/api/media-admin/classify/status')); } catch (e) { box.replaceChildren(el('p', { class: 'note error' }, readable(e))); toast(readable(e)); }
  }
  draw(st);
  return { node, reload, event, relabel: () => draw(st) };
}

// ---- audit and duplicates ------------------------------------------------

// The last audit outlives a visit to another tab (the module is loaded
// once): {report, issues: whether its list is known}. An audit that ran
// elsewhere (another administrator, the chat) arrives as audit_completed
// with its counts only.
let lastAudit = null;
let ownAudits = 0; // audits this page ran whose event has not come yet
const auditKinds = ['missing_file', 'unregistered_file', 'duplicate', 'incomplete_metadata', 'orphan'];

function auditBlock(open) {
  const out = el('div', { id: 'audit' });
  const run = button('alib.runAudit', async () => {
    // The audit reads the whole disk and answers once: an indeterminate
    // bar says it is working.
    out.dataset.state = 'running';
    fill(out, progress(0, 0, t('alib.auditRunning')));
    ownAudits++;
    try {
      lastAudit = { report: await api('/api/media-admin/audit', { method: 'POST' }), issues: true };
    } catch (e) {
      if (e.status >= 400) ownAudits--; // refused (one is running): no event of its own
      throw e;
    } finally {
      delete out.dataset.state;
      draw(0);
    }
  }, { kind: 'primary' });
  run.id = 'audit-run';

  function draw(offset) {
    if (!lastAudit) { out.replaceChildren(); return; }
    const rep = lastAudit.report;
    const summary = el('p', { class: 'chips', id: 'audit-summary' }, Object.entries(rep.summary || {}).flatMap(([k, n]) =>
      [chip(t('kind.' + k) + ': ' + formatNumber(n), n ? 'warn' : 'ok'), ' ']));
    const head = el('p', { class: 'note' }, t('alib.auditDone', { checked: formatNumber(rep.checked), total: formatNumber(rep.total), ms: formatNumber(rep.duration_ms) }));
    if (!lastAudit.issues) {
      fill(out, head, summary, el('p', { class: 'note', id: 'audit-elsewhere' }, t('alib.auditElsewhere')));
      return;
    }
    const page = rep.issues.slice(offset, offset + pageSize);
    const tbl = table([
      { label: 'alib.kind', cell: (i) => t('kind.' + i.kind) },
      { label: 'alib.title', cell: (i) => i.media_id ? el('button', { type: 'button', class: 'link', onclick: () => open(i.media_id) }, i.title || '#' + i.media_id) : (i.title || '—') },
      { label: 'alib.path', cell: (i) => i.path || '—', class: 'path' },
      { label: 'alib.detail', cell: (i) => i.detail || '' },
    ], page, 'admin.empty');
    fill(out, head, summary, tbl, rep.issues.length > pageSize ? pager({ total: rep.issues.length, limit: pageSize, offset, onPage: draw }) : null);
  }

  function event(ev) {
    if (ev.event !== 'audit_completed') return;
    // The event of this page's own audit, before or after its answer (even
    // after a visit to another tab), is not news.
    if (ownAudits > 0) { ownAudits--; return; }
    lastAudit = { report: { total: ev.total, checked: ev.checked, duration_ms: ev.duration_ms,
      summary: Object.fromEntries(auditKinds.map((k) => [k, ev[k] || 0])) }, issues: false };
    draw(0);
  }
  draw(0);
  return { node: section('alib.audit', el('div', { class: 'toolbar' }, run), out), event, redraw: () => draw(0) };
}

function duplicatesBlock(open) {
  const out = el('div', { id: 'duplicates' });
  const groupsPerPage = 20;
  // The server pages the groups (X-Total-Count): a page is all it reads.
  const load = async (offset) => {
    const { items, total } = await api('/api/media-admin/duplicates?' + new URLSearchParams({ limit: String(groupsPerPage), offset: String(offset) }), { total: true });
    show(items.groups || [], total, offset);
  };
  let last = null; // the page shown: [groups, total, offset]
  const run = button('alib.findDuplicates', () => load(0));
  run.id = 'duplicates-run';

  function show(groups, total, offset) {
    last = [groups, total, offset];
    fill(out, el('p', { class: 'note' }, t('alib.groups', { n: formatNumber(total) })),
      groups.length ? el('ol', { class: 'dup-groups', start: String(offset + 1) }, groups.map((g) => el('li', { class: 'dup-group' },
        chip(t('reason.' + g.reason)), el('ul', {}, g.entries.map((m) => el('li', {},
          el('button', { type: 'button', class: 'link', onclick: () => open(m.id) }, entryTitle(m) + (m.year ? ' (' + m.year + ')' : '')),
          ' ', el('span', { class: 'note mono' }, m.path), m.size ? el('span', { class: 'note' }, ' · ' + formatBytes(m.size)) : null)))))) :
        el('p', { class: 'note' }, t('admin.empty')),
      total > groupsPerPage ? pager({ total, limit: groupsPerPage, offset, onPage: (o) => action(null, () => load(o)) }) : null);
  }
  return { node: section('alib.duplicates', el('div', { class: 'toolbar' }, run), out), relabel: () => { if (last) show(...last); } };
}
