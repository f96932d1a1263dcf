// The library browser shared by the player and the remote: continue
// watching, search as you type, categories, and series → seasons →
// episodes, with thumbnails. It only browses: picking a film or an episode
// calls onPick(entry), and the page plays it (the player) or sends it to
// the room (the remote).
import { api, thumbnail, readable } from './api.js';
import { t, currentLang, onLangChange } from './i18n.js';
import { el, entryTitle } from './ui.js';

const playable = (e) => e.media_type === 'movie' || e.media_type === 'episode';
const shelfLimit = 120; // cards drawn at once; "show more" draws the next ones

/**
 * The thumbnails of one browser: each box asks for its picture when it
 * comes into view. put() replaces what a part of the browser shows and
 * lets go of the boxes it drops, so the observer holds only what is drawn.
 */
function thumbWatcher() {
  const seen = new IntersectionObserver((items) => {
    for (const it of items) {
      if (!it.isIntersecting) continue;
      seen.unobserve(it.target);
      it.target.dispatchEvent(new Event('visible'));
    }
  }, { rootMargin: '200px' });
  return {
    /** The thumbnail box of an entry: its first letter until the picture arrives. */
    box(entry, progress) {
      const img = el('img', { alt: '', hidden: true });
      const box = el('div', { class: 'thumb' }, el('span', { class: 'letter', 'aria-hidden': 'true' }, entryTitle(entry).slice(0, 1)), img);
      if (progress && progress.duration > 0) {
        const pct = Math.min(100, Math.round(100 * progress.position / progress.duration));
        box.append(el('div', { class: 'progress' }, el('div', { class: 'bar', dataset: { pct } })));
        box.querySelector('.bar').style.width = pct + '%';
      }
      if (progress && progress.watched) box.append(el('span', { class: 'watched', title: t('lib.watched') }, '✓'));
      box.addEventListener('visible', () => thumbnail(entry.id).then((url) => { if (url) { img.src = url; img.hidden = false; } }));
      seen.observe(box);
      return box;
    },
    /** Replaces container's children with nodes. */
    put(container, ...nodes) {
      for (const b of container.querySelectorAll('.thumb')) seen.unobserve(b);
      container.replaceChildren(...nodes);
    },
  };
}

function subtitle(e) {
  const bits = [];
  if (e.media_type === 'episode' && e.number != null) bits.push(t('lib.episode', { n: e.number }));
  else if (e.media_type === 'season' && e.number != null) bits.push(e.number === 0 ? t('lib.specials') : t('lib.season', { n: e.number }));
  else if (e.media_type === 'series') bits.push(t('lib.type.series'));
  if (e.year) bits.push(String(e.year));
  return bits.join(' · ');
}

const note = (text) => el('p', { class: 'note' }, text);

/**
 * Builds the browser into root. onPick(entry) gets a movie or an episode.
 * Returns {refresh}: reload the continue-watching row.
 */
export function createLibrary(root, { onPick }) {
  const lib = { thumbs: thumbWatcher(), onPick };
  lib.card = (entry, progress) => el('button', { class: 'card', type: 'button', onclick: () => (playable(entry) ? onPick(entry) : lib.drill(entry.id)) },
    lib.thumbs.box(entry, progress || entry.user_state), el('span', { class: 'name' }, entryTitle(entry)),
    el('span', { class: 'meta' }, subtitle(entry)));
  const cont = continueRow(lib);
  const search = el('input', { type: 'search', id: 'search', autocomplete: 'off', dataset: { i18nPlaceholder: 'lib.search' }, placeholder: t('lib.search') });
  const parts = { results: el('section', { class: 'results', hidden: true }), browse: shelves(lib), drill: el('section', { class: 'drill', hidden: true }) };
  // One of the three shows at a time.
  lib.show = (name) => { for (const [k, node] of Object.entries(parts)) node.hidden = k !== name; };
  lib.back = () => lib.show(search.value.trim().length >= 2 ? 'results' : 'browse');
  lib.drill = drillInto(lib, parts.drill);
  searchAsYouType(lib, search, parts.results);
  root.append(cont.node, el('div', { class: 'searchbar' }, search), parts.results, parts.browse, parts.drill);
  return { refresh: cont.refresh };
}

// Continue watching: hidden when the server has no such list (yet) or it is empty.
function continueRow(lib) {
  const row = el('div', { class: 'row' });
  const node = el('section', { class: 'continue', hidden: true }, el('h2', { dataset: { i18n: 'lib.continue' } }, t('lib.continue')), row);
  async function refresh() {
    let items = [];
    try { items = await api('/api/media/continue'); } catch { items = []; }
    lib.thumbs.put(row, ...(Array.isArray(items) ? items : []).map((it) => lib.card(it.media, it)));
    node.hidden = row.children.length === 0;
  }
  refresh();
  return { node, refresh };
}

// Categories: the shelves are read once; a chip shows its shelf.
function shelves(lib) {
  const chips = el('div', { class: 'chips', role: 'tablist' });
  const shelf = el('div', { class: 'grid' });
  let all = null;
  let current = '';
  function draw(limit = shelfLimit) {
    if (!all) return;
    const ru = currentLang() === 'ru';
    chips.replaceChildren(...all.categories.filter((c) => c.count > 0).map((c) => el('button', {
      type: 'button', class: 'chip', role: 'tab', 'aria-selected': String(c.name === current),
      onclick: () => { current = c.name; draw(); },
    }, (ru ? c.title_ru : c.title_en) || c.name)));
    const entries = [...(all.movies[current] || []), ...(all.series[current] || [])]
      .sort((a, b) => entryTitle(a).localeCompare(entryTitle(b)));
    const cards = entries.slice(0, limit).map((e) => lib.card(e));
    if (entries.length > limit) cards.push(el('button', { type: 'button', class: 'more', onclick: () => draw(limit + shelfLimit) }, t('lib.more')));
    lib.thumbs.put(shelf, ...(cards.length ? cards : [note(t('lib.empty'))]));
  }
  api('/api/media/by-category').then((r) => {
    all = r;
    const cats = all.categories.filter((c) => c.count > 0);
    current = cats.length ? cats[0].name : '';
    draw();
  }, (e) => shelf.replaceChildren(note(readable(e))));
  onLangChange(() => draw());
  return el('section', { class: 'browse' }, chips, shelf);
}

// Search as you type: the ranked title search, a moment after typing stops.
function searchAsYouType(lib, search, results) {
  let timer = 0;
  let inflight = null;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(run, 300);
  });
  async function run() {
    const q = search.value.trim();
    if (inflight) inflight.abort();
    if (q.length < 2) { lib.show('browse'); return; }
    inflight = new AbortController();
    lib.show('results');
    lib.thumbs.put(results, note(t('lib.loading')));
    try {
      const r = await api('/api/media/by-title', { method: 'POST', body: { title: q }, signal: inflight.signal });
      results.replaceChildren(el('div', { class: 'grid' }, [r.match, ...r.alternatives].map((e) => lib.card(e))));
    } catch (e) {
      if (e.name === 'AbortError') return;
      results.replaceChildren(note(e.code === 'media_not_found' ? t('lib.nothing') : readable(e)));
    }
  }
}

// An episode named like its series is named by its number instead.
function episodeName(e, series) {
  const own = entryTitle(e) !== entryTitle(series) ? entryTitle(e) : '';
  if (e.number == null) return own || entryTitle(e);
  return own ? e.number + '. ' + own : t('lib.episodeTitle', { n: e.number });
}

// Series → seasons → episodes: returns drill(id), which shows entry id's.
// A change of language draws what is shown again in the new one.
function drillInto(lib, drill) {
  const backButton = () => el('button', { type: 'button', class: 'back', onclick: lib.back }, '← ' + t('lib.back'));
  const episodeRow = (series) => (e) => el('li', {}, el('button', { type: 'button', class: 'episode', onclick: () => lib.onPick(e) },
    lib.thumbs.box(e, e.user_state), el('span', { class: 'name' }, episodeName(e, series))));
  let shown = null; // {entry, season}: what the drill shows
  function draw() {
    const { entry } = shown;
    const seasons = entry.media_type === 'series' ? entry.children : [entry];
    const tabs = el('div', { class: 'chips', role: 'tablist' });
    const list = el('ol', { class: 'episodes' });
    const pickSeason = (s) => {
      shown.season = s.id;
      for (const b of tabs.children) b.setAttribute('aria-selected', String(b.dataset.id === String(s.id)));
      lib.thumbs.put(list, ...(s.children || []).map(episodeRow(entry)));
      if (!s.children || !s.children.length) list.append(el('li', { class: 'note' }, t('lib.noEpisodes')));
    };
    tabs.append(...seasons.map((s) => el('button', { type: 'button', class: 'chip', role: 'tab', dataset: { id: s.id }, onclick: () => pickSeason(s) },
      s.number === 0 ? t('lib.specials') : s.number != null ? t('lib.season', { n: s.number }) : entryTitle(s))));
    lib.thumbs.put(drill, backButton(), el('h2', {}, entryTitle(entry), entry.year ? ' (' + entry.year + ')' : ''), tabs, list);
    const season = seasons.find((s) => s.id === shown.season) || seasons[0];
    if (season) pickSeason(season);
  }
  onLangChange(() => { if (shown && !drill.hidden) draw(); });
  return async function showDrill(id) {
    shown = null;
    lib.show('drill');
    lib.thumbs.put(drill, note(t('lib.loading')));
    drill.scrollIntoView({ block: 'nearest' });
    let entry;
    try { entry = await api('/api/media/' + id); } catch (e) { drill.replaceChildren(backButton(), note(readable(e))); return; }
    shown = { entry, season: null };
    draw();
  };
}
