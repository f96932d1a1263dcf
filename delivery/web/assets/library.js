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

// Cards ask for their thumbnail when they come into view.
const seen = new IntersectionObserver((items) => {
  for (const it of items) {
    if (!it.isIntersecting) continue;
    seen.unobserve(it.target);
    it.target.dispatchEvent(new Event('visible'));
  }
}, { rootMargin: '200px' });

/** The thumbnail box of an entry: its first letter until the picture arrives. */
export function thumbBox(entry, progress) {
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
}

function subtitle(e) {
  const bits = [];
  if (e.media_type === 'episode' && e.number != null) bits.push(t('lib.episode', { n: e.number }));
  else if (e.media_type === 'season' && e.number != null) bits.push(e.number === 0 ? t('lib.specials') : t('lib.season', { n: e.number }));
  else if (e.media_type === 'series') bits.push(t('lib.type.series'));
  if (e.year) bits.push(String(e.year));
  return bits.join(' · ');
}

/**
 * Builds the browser into root. onPick(entry) gets a movie or an episode.
 * Returns {refresh}: reload the continue-watching row.
 */
export function createLibrary(root, { onPick }) {
  const cont = el('section', { class: 'continue', hidden: true }, el('h2', { dataset: { i18n: 'lib.continue' } }, t('lib.continue')));
  const contRow = el('div', { class: 'row' });
  cont.append(contRow);
  const search = el('input', { type: 'search', id: 'search', autocomplete: 'off', dataset: { i18nPlaceholder: 'lib.search' }, placeholder: t('lib.search') });
  const results = el('section', { class: 'results', hidden: true });
  const chips = el('div', { class: 'chips', role: 'tablist' });
  const shelf = el('div', { class: 'grid' });
  const browse = el('section', { class: 'browse' }, chips, shelf);
  const drill = el('section', { class: 'drill', hidden: true });
  root.append(cont, el('div', { class: 'searchbar' }, search), results, browse, drill);

  const card = (entry, progress) => el('button', { class: 'card', type: 'button', onclick: () => open(entry) },
    thumbBox(entry, progress || entry.user_state), el('span', { class: 'name' }, entryTitle(entry)),
    el('span', { class: 'meta' }, subtitle(entry)));

  function open(entry) {
    if (playable(entry)) onPick(entry);
    else showDrill(entry.id);
  }

  // Continue watching: hidden when the server has no such list (yet) or it is empty.
  async function refresh() {
    let items = [];
    try { items = await api('/api/media/continue'); } catch { items = []; }
    contRow.replaceChildren(...(Array.isArray(items) ? items : []).map((it) => card(it.media, it)));
    cont.hidden = contRow.children.length === 0;
  }

  // Categories: the shelves are read once; a chip shows its shelf.
  let shelves = null;
  let current = '';
  async function loadShelves() {
    try {
      shelves = await api('/api/media/by-category');
    } catch (e) {
      shelf.replaceChildren(el('p', { class: 'note' }, readable(e)));
      return;
    }
    const cats = shelves.categories.filter((c) => c.count > 0);
    current = cats.length ? cats[0].name : '';
    drawShelves();
  }
  function drawShelves(limit = shelfLimit) {
    if (!shelves) return;
    const ru = currentLang() === 'ru';
    chips.replaceChildren(...shelves.categories.filter((c) => c.count > 0).map((c) => el('button', {
      type: 'button', class: 'chip', role: 'tab', 'aria-selected': String(c.name === current),
      onclick: () => { current = c.name; drawShelves(); },
    }, (ru ? c.title_ru : c.title_en) || c.name)));
    const entries = [...(shelves.movies[current] || []), ...(shelves.series[current] || [])]
      .sort((a, b) => entryTitle(a).localeCompare(entryTitle(b)));
    const cards = entries.slice(0, limit).map((e) => card(e));
    if (entries.length > limit) cards.push(el('button', { type: 'button', class: 'more', onclick: () => drawShelves(limit + shelfLimit) }, t('lib.more')));
    shelf.replaceChildren(...(cards.length ? cards : [el('p', { class: 'note' }, t('lib.empty'))]));
  }

  // Search as you type: the ranked title search, a moment after typing stops.
  let timer = 0;
  let inflight = null;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(runSearch, 300);
  });
  async function runSearch() {
    const q = search.value.trim();
    if (inflight) inflight.abort();
    if (q.length < 2) { results.hidden = true; browse.hidden = false; return; }
    inflight = new AbortController();
    results.hidden = false;
    browse.hidden = true;
    drill.hidden = true;
    results.replaceChildren(el('p', { class: 'note' }, t('lib.loading')));
    try {
      const r = await api('/api/media/by-title', { method: 'POST', body: { title: q }, signal: inflight.signal });
      results.replaceChildren(el('div', { class: 'grid' }, [r.match, ...r.alternatives].map((e) => card(e))));
    } catch (e) {
      if (e.name === 'AbortError') return;
      results.replaceChildren(el('p', { class: 'note' }, e.code === 'media_not_found' ? t('lib.nothing') : readable(e)));
    }
  }

  // Series → seasons → episodes.
  async function showDrill(id) {
    drill.hidden = false;
    results.hidden = true;
    browse.hidden = true;
    drill.replaceChildren(el('p', { class: 'note' }, t('lib.loading')));
    drill.scrollIntoView({ block: 'nearest' });
    let entry;
    try { entry = await api('/api/media/' + id); } catch (e) { drill.replaceChildren(backButton(), el('p', { class: 'note' }, readable(e))); return; }
    const seasons = entry.media_type === 'series' ? entry.children : [entry];
    const tabs = el('div', { class: 'chips', role: 'tablist' });
    const list = el('ol', { class: 'episodes' });
    const pickSeason = (s) => {
      for (const b of tabs.children) b.setAttribute('aria-selected', String(b.dataset.id === String(s.id)));
      list.replaceChildren(...(s.children || []).map(episodeRow(entry)));
      if (!s.children || !s.children.length) list.append(el('li', { class: 'note' }, t('lib.noEpisodes')));
    };
    tabs.append(...seasons.map((s) => el('button', { type: 'button', class: 'chip', role: 'tab', dataset: { id: s.id }, onclick: () => pickSeason(s) },
      s.number === 0 ? t('lib.specials') : s.number != null ? t('lib.season', { n: s.number }) : entryTitle(s))));
    drill.replaceChildren(backButton(), el('h2', {}, entryTitle(entry), entry.year ? ' (' + entry.year + ')' : ''), tabs, list);
    if (seasons.length) pickSeason(seasons[0]);
  }
  // An episode named like its series is named by its number instead.
  const episodeName = (e, series) => {
    const own = entryTitle(e) !== entryTitle(series) ? entryTitle(e) : '';
    if (e.number == null) return own || entryTitle(e);
    return own ? e.number + '. ' + own : t('lib.episodeTitle', { n: e.number });
  };
  const episodeRow = (series) => (e) => el('li', {}, el('button', { type: 'button', class: 'episode', onclick: () => onPick(e) },
    thumbBox(e, e.user_state), el('span', { class: 'name' }, episodeName(e, series))));
  const backButton = () => el('button', { type: 'button', class: 'back', onclick: () => {
    drill.hidden = true;
    const searching = search.value.trim().length >= 2;
    results.hidden = !searching;
    browse.hidden = searching;
  } }, '← ' + t('lib.back'));

  onLangChange(() => drawShelves());
  refresh();
  loadShelves();
  return { refresh };
}
