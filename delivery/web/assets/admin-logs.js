// The admin panel's Logs tab (API.md §9): the log files, a viewer of a
// file's last lines with a level filter, a text search and the tail
// size; clearing one file or all (each after a confirmation); analysis,
// whose report is waited for through the log_analyzed event (and by
// asking the report list, should the event stream be down); the reports,
// rendered by our own Markdown renderer (admin-md.js: elements and text
// only, so a log line holding <script> is shown, never run); the
// statistics of the last 24 hours with the errors per hour drawn.
import { t, addStrings, currentLang } from './i18n.js';
import { api } from './api.js';
import { el, toast, showError } from './ui.js';
import { section, table, pager, button, action, confirmButton, field, chip, columns, formatBytes, formatDate, formatNumber } from './admin-kit.js';
import { renderMarkdown } from './admin-md.js';

addStrings({
  ru: {
    'alog.stats': 'За последние сутки', 'alog.totalSize': 'Объём журналов', 'alog.files': 'Файлов', 'alog.reports': 'Отчётов',
    'alog.errors24h': 'Ошибок за сутки', 'alog.perHour': 'Ошибки по часам (ваше время), последние 24 часа',
    'alog.perHourNone': 'Ошибок за сутки не было.',
    'alog.fileList': 'Файлы журналов', 'alog.name': 'Имя', 'alog.size': 'Размер', 'alog.modified': 'Изменён',
    'alog.open': 'Открыть', 'alog.analyze': 'Анализировать', 'alog.clear': 'Очистить', 'alog.clearAll': 'Очистить все',
    'alog.confirmClear': 'Очистить {name}?', 'alog.confirmClearAll': 'Очистить все файлы журналов?',
    'alog.cleared': 'Очищено файлов: {n}',
    'alog.viewer': 'Просмотр', 'alog.pick': 'Выберите файл в списке выше.', 'alog.level': 'Уровень', 'alog.anyLevel': 'Все уровни',
    'alog.search': 'Поиск в строках', 'alog.tail': 'Последние строки', 'alog.whole': 'Весь файл (до 10 000)', 'alog.refresh': 'Обновить',
    'alog.shown': '{file}: показано {n} из {total} строк', 'alog.noLines': 'Нет строк под эти условия.',
    'alog.reportList': 'Отчёты анализа', 'alog.noReports': 'Отчётов пока нет: запустите анализ файла.',
    'alog.analysing': 'Идёт анализ {file}…', 'alog.analysed': 'Анализ {file} готов', 'alog.analysisFailed': 'Анализ {file} не удался',
    'alog.close': 'Закрыть',
    'level.debug': 'debug', 'level.info': 'info', 'level.warn': 'warn', 'level.error': 'error',
    'err.analysis_running': 'Анализ этого файла уже идёт', 'err.invalid_filename': 'Недопустимое имя файла',
  },
  en: {
    'alog.stats': 'The last 24 hours', 'alog.totalSize': 'Log size', 'alog.files': 'Files', 'alog.reports': 'Reports',
    'alog.errors24h': 'Errors in 24 h', 'alog.perHour': 'Errors per hour (your time), the last 24 hours',
    'alog.perHourNone': 'No errors in the last 24 hours.',
    'alog.fileList': 'Log files', 'alog.name': 'Name', 'alog.size': 'Size', 'alog.modified': 'Modified',
    'alog.open': 'Open', 'alog.analyze': 'Analyze', 'alog.clear': 'Clear', 'alog.clearAll': 'Clear all',
    'alog.confirmClear': 'Clear {name}?', 'alog.confirmClearAll': 'Clear every log file?',
    'alog.cleared': 'Files cleared: {n}',
    'alog.viewer': 'Viewer', 'alog.pick': 'Pick a file in the list above.', 'alog.level': 'Level', 'alog.anyLevel': 'All levels',
    'alog.search': 'Search the lines', 'alog.tail': 'Last lines', 'alog.whole': 'Whole file (up to 10,000)', 'alog.refresh': 'Refresh',
    'alog.shown': '{file}: {n} of {total} lines shown', 'alog.noLines': 'No line matches.',
    'alog.reportList': 'Analysis reports', 'alog.noReports': 'No reports yet: analyze a file.',
    'alog.analysing': 'Analysing {file}…', 'alog.analysed': 'The analysis of {file} is ready', 'alog.analysisFailed': 'The analysis of {file} failed',
    'alog.close': 'Close',
    'level.debug': 'debug', 'level.info': 'info', 'level.warn': 'warn', 'level.error': 'error',
    'err.analysis_running': 'This file is already being analysed', 'err.invalid_filename': 'Not an allowed file name',
  },
});

const linesPerPage = 200;
const listPage = 20;
const tails = [100, 500, 1000, 5000, 0];
const levelKind = { error: 'err', warn: 'warn', info: 'ok', debug: 'muted' };

export default async function mount(root, { onEvent }) {
  const stop = new AbortController();
  const state = {
    files: [], filesOffset: 0, reports: [], reportsOffset: 0,
    file: '', level: '', q: '', tail: 500, lines: [], linesOffset: null, total: 0,
    waiting: new Map(), // report name → file, for analyses under way
  };
  const statsBox = el('div', { class: 'alog-stats' }, el('p', { class: 'note' }, t('lib.loading')));
  const filesBox = el('div', {});
  const viewerHead = el('p', { class: 'note', id: 'alog-shown' }, t('alog.pick'));
  const linesBox = el('div', { class: 'alog-lines', id: 'alog-lines' });
  const reportsBox = el('div', {});
  const reportView = el('div', { class: 'alog-report', id: 'alog-report', hidden: true });
  const analysing = el('div', { class: 'alog-analysing' });

  const level = el('select', { id: 'alog-level', onchange: () => { state.level = level.value; read(); } },
    el('option', { value: '' }, t('alog.anyLevel')), ['debug', 'info', 'warn', 'error'].map((l) => el('option', { value: l }, t('level.' + l))));
  const search = el('input', { type: 'search', id: 'alog-q', placeholder: t('alog.search'), 'aria-label': t('alog.search') });
  let typing = 0;
  search.addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(() => { state.q = search.value.trim(); read(); }, 300); });
  const tail = el('select', { id: 'alog-tail', onchange: () => { state.tail = Number(tail.value); read(); } },
    tails.map((n) => el('option', { value: String(n), selected: n === state.tail }, n ? formatNumber(n) : t('alog.whole'))));
  const refresh = button('alog.refresh', () => read(true));
  refresh.id = 'alog-refresh';

  async function loadFiles() {
    const r = await api('/api/logs/files');
    state.files = r.files || [];
    drawFiles();
    return state.files;
  }

  function drawFiles() {
    const page = state.files.slice(state.filesOffset, state.filesOffset + listPage);
    const clearOne = (f) => confirmButton('alog.clear', t('alog.confirmClear', { name: f.name }), async () => {
      const r = await api('/api/logs/clear?' + new URLSearchParams({ filename: f.name }), { method: 'DELETE' });
      toast(t('alog.cleared', { n: r.count }), 'info');
      await afterClear();
    });
    filesBox.replaceChildren(
      table([
        { label: 'alog.name', cell: (f) => el('span', { class: 'mono' }, f.name) },
        { label: 'alog.size', class: 'num', cell: (f) => formatBytes(f.size) },
        { label: 'alog.modified', cell: (f) => formatDate(f.modified) },
        { label: '', cell: (f) => el('div', { class: 'row-actions', dataset: { file: f.name } },
          el('button', { type: 'button', class: 'btn primary alog-open', onclick: () => openFile(f.name) }, t('alog.open')),
          button('alog.analyze', () => analyze(f.name)), clearOne(f)) },
      ], page),
      state.files.length > listPage ? pager({ total: state.files.length, limit: listPage, offset: state.filesOffset, onPage: (o) => { state.filesOffset = o; drawFiles(); } }) : '',
      state.files.length ? el('div', { class: 'toolbar' }, confirmButton('alog.clearAll', t('alog.confirmClearAll'), async () => {
        const r = await api('/api/logs/clear', { method: 'DELETE' });
        toast(t('alog.cleared', { n: r.count }), 'info');
        await afterClear();
      })) : '');
  }

  async function afterClear() {
    await Promise.all([loadFiles(), loadStats()]);
    if (state.file) await read();
  }

  function openFile(name) {
    state.file = name;
    read().then(() => linesBox.scrollIntoView({ block: 'nearest' }));
  }

  // read asks for the file's lines under the filters; loud: a refresh the
  // person asked for, whose failure is a toast too.
  let reading = null;
  async function read(loud) {
    if (!state.file) return;
    reading?.abort();
    const mine = reading = new AbortController();
    refresh.disabled = true;
    try {
      const r = await api('/api/logs/read?' + new URLSearchParams(Object.entries({ filename: state.file, tail: String(state.tail), level: state.level, q: state.q })
        .filter(([, v]) => v !== '')), { signal: mine.signal });
      state.lines = r.lines || [];
      state.total = r.total_lines;
      state.linesOffset = null;
      drawLines();
    } catch (e) {
      if (e.name === 'AbortError') return;
      viewerHead.textContent = state.file + ': ' + (e.message || String(e));
      viewerHead.classList.add('error');
      linesBox.replaceChildren();
      if (loud !== false) showError(e);
    } finally {
      if (reading === mine) refresh.disabled = false;
    }
  }

  function drawLines() {
    viewerHead.classList.remove('error');
    viewerHead.textContent = t('alog.shown', { file: state.file, n: formatNumber(state.lines.length), total: formatNumber(state.total) });
    // The newest lines are at the end: paging starts at the last page
    // (linesOffset null) until the person pages.
    const pages = Math.max(1, Math.ceil(state.lines.length / linesPerPage));
    const start = state.linesOffset ?? (pages - 1) * linesPerPage;
    const shown = state.lines.slice(start, start + linesPerPage);
    const list = shown.length
      ? el('ol', { class: 'log-lines' }, shown.map(lineNode))
      : el('p', { class: 'note' }, t('alog.noLines'));
    linesBox.replaceChildren(list,
      state.lines.length > linesPerPage ? pager({ total: state.lines.length, limit: linesPerPage, offset: start,
        onPage: (o) => { state.linesOffset = o; drawLines(); } }) : '');
    // A tail reads from its end: the newest line is in view.
    if (shown.length && state.linesOffset === null) list.scrollTop = list.scrollHeight;
  }

  function lineNode(l) {
    if (l.raw !== undefined && l.raw !== null) return el('li', { class: 'log-line raw' }, el('span', { class: 'msg mono' }, l.raw));
    const attrs = l.attrs ? Object.entries(l.attrs).map(([k, v]) => el('span', { class: 'attr' },
      el('span', { class: 'k' }, k + '='), typeof v === 'string' ? v : JSON.stringify(v), ' ')) : [];
    return el('li', { class: 'log-line', dataset: { level: l.level || '' } },
      el('time', { class: 'mono' }, l.time ? formatDate(l.time) : ''),
      chip(l.level || '—', levelKind[l.level] || 'muted'),
      el('span', { class: 'msg' }, l.msg ?? ''), attrs.length ? el('span', { class: 'attrs mono' }, attrs) : '');
  }

  async function analyze(name) {
    const r = await api('/api/logs/analyze', { method: 'POST', body: { filename: name } });
    toast(t('alog.analysing', { file: name }), 'info');
    state.waiting.set(r.report, name);
    drawAnalysing();
    pollReports();
  }

  function drawAnalysing() {
    analysing.replaceChildren(...[...state.waiting.values()].map((f) => el('p', { class: 'note' }, t('alog.analysing', { file: f }))));
  }

  // finished settles the analysis whose report is name: ok or not.
  async function finished(name, ok) {
    const file = state.waiting.get(name);
    if (file === undefined) return;
    state.waiting.delete(name);
    drawAnalysing();
    if (!ok) { toast(t('alog.analysisFailed', { file })); return; }
    toast(t('alog.analysed', { file }), 'info');
    await loadReports().catch(showError);
    await openReport(name).catch(showError);
    loadStats().catch(() => {});
  }

  // The event says when; the report list is asked too every 2 s, so a
  // lost event stream does not leave the page waiting for ever.
  let polling = 0;
  function pollReports() {
    if (polling || stop.signal.aborted) return;
    polling = setTimeout(async () => {
      polling = 0;
      if (!state.waiting.size || stop.signal.aborted) return;
      try {
        const r = await api('/api/logs/reports');
        for (const rep of r.reports || []) if (state.waiting.has(rep.name)) await finished(rep.name, true);
      } catch { /* asked again below */ }
      if (state.waiting.size) pollReports();
    }, 2000);
  }

  const offEvent = onEvent((ev) => {
    if (ev.event === 'log_analyzed' && ev.report) finished(ev.report, ev.state === 'completed' || ev.state === undefined);
  });

  async function loadReports() {
    const r = await api('/api/logs/reports');
    state.reports = r.reports || [];
    drawReports();
  }

  function drawReports() {
    const page = state.reports.slice(state.reportsOffset, state.reportsOffset + listPage);
    reportsBox.replaceChildren(
      state.reports.length ? table([
        { label: 'alog.name', cell: (r) => el('button', { type: 'button', class: 'link mono alog-report-link', onclick: () => action(null, () => openReport(r.name)) }, r.name) },
        { label: 'alog.size', class: 'num', cell: (r) => formatBytes(r.size) },
        { label: 'alog.modified', cell: (r) => formatDate(r.modified) },
      ], page) : el('p', { class: 'note' }, t('alog.noReports')),
      state.reports.length > listPage ? pager({ total: state.reports.length, limit: listPage, offset: state.reportsOffset, onPage: (o) => { state.reportsOffset = o; drawReports(); } }) : '');
  }

  async function openReport(name) {
    const r = await api('/api/logs/report?' + new URLSearchParams({ filename: name }));
    reportView.hidden = false;
    reportView.dataset.name = name;
    reportView.replaceChildren(
      el('div', { class: 'toolbar' }, el('span', { class: 'mono note' }, name),
        el('button', { type: 'button', class: 'btn', onclick: () => { reportView.hidden = true; reportView.replaceChildren(); } }, t('alog.close'))),
      el('article', { class: 'md' }, renderMarkdown(r.content)));
    reportView.scrollIntoView({ block: 'nearest' });
  }

  async function loadStats() {
    const s = await api('/api/logs/stats');
    const stat = (label, value) => el('div', { class: 'stat' }, el('span', { class: 'num' }, value), el('span', { class: 'label' }, t(label)));
    const levels = ['error', 'warn', 'info', 'debug'].map((l) => el('div', { class: 'stat', dataset: { level: l } },
      el('span', { class: 'num' }, formatNumber(s.by_level?.[l])), el('span', { class: 'label' }, t('level.' + l))));
    statsBox.replaceChildren(
      el('div', { class: 'stats' },
        stat('alog.errors24h', formatNumber(s.errors_last_24h)), stat('alog.totalSize', formatBytes(s.total_size_bytes)),
        stat('alog.files', formatNumber(s.file_count)), stat('alog.reports', formatNumber(s.report_count)), levels),
      el('h3', {}, t('alog.perHour')), el('div', { class: 'alog-hourly' }, errorsPerHour(s.errors_per_hour, s.errors_last_24h)));
  }

  /**
   * The errors of the last 24 hours, one column per hour labelled in the
   * person's time, as the server counted them with the statistics
   * (errors_per_hour: the hours' starts and their counts, oldest first).
   */
  function errorsPerHour(perHour, total) {
    const counts = (perHour && perHour.counts) || [];
    const hours = (perHour && perHour.hours) || [];
    const label = (iso) => new Date(iso).toLocaleTimeString(currentLang(), { hour: '2-digit', minute: '2-digit' });
    const chart = columns(counts, hours.map(label));
    chart.id = 'alog-hourly';
    return [chart, total > 0 ? '' : el('p', { class: 'note' }, t('alog.perHourNone'))];
  }

  try {
    await loadFiles();
    if (state.files.some((f) => f.name === 'mediateka.log')) state.file = 'mediateka.log';
  } catch (e) {
    filesBox.replaceChildren(el('p', { class: 'note error' }, e.message || String(e)));
    showError(e);
  }
  // The tab shows once its first reads are in (the panel says "loading"
  // meanwhile), so it never flashes half drawn.
  await Promise.all([
    loadStats().catch((e) => { statsBox.replaceChildren(el('p', { class: 'note error' }, e.message || String(e))); showError(e); }),
    loadReports().catch((e) => { reportsBox.replaceChildren(el('p', { class: 'note error' }, e.message || String(e))); showError(e); }),
    state.file ? read(false) : null,
  ]);
  root.append(
    el('div', { class: 'alog' },
      section('alog.stats', statsBox),
      section('alog.fileList', filesBox),
      section('alog.viewer', el('div', { class: 'toolbar' }, field('alog.level', level), field('alog.tail', tail), search, refresh), viewerHead, linesBox),
      section('alog.reportList', analysing, reportsBox, reportView)));


  return () => {
    stop.abort();
    clearTimeout(polling);
    clearTimeout(typing);
    reading?.abort();
    offEvent();
  };
}
