// Russian and English. The language is the browser's (Russian for any ru-*,
// English otherwise) until the person picks one; the pick is remembered in
// localStorage. Static text is marked in the HTML (data-i18n and friends)
// and re-applied on every switch; code that draws text itself listens for
// the change with onLangChange.
import { strings } from './strings.js';

const KEY = 'mediateka_lang';
const changeEvent = 'mediateka:lang';

function initial() {
  const stored = localStorage.getItem(KEY);
  if (stored === 'ru' || stored === 'en') return stored;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  for (const l of langs) {
    const base = String(l).toLowerCase().split('-')[0];
    if (base === 'ru' || base === 'en') return base;
  }
  return 'en';
}

let lang = initial();

/** The language in use: 'ru' or 'en'. */
export const currentLang = () => lang;

/** Whether a string exists for key (error codes are looked up this way). */
export const has = (key) => key in strings[lang] || key in strings.en;

/**
 * The text of key in the current language with {name} placeholders
 * filled from vars; the key itself when no language has it.
 */
export function t(key, vars) {
  const s = strings[lang][key] ?? strings.en[key] ?? key;
  return vars ? s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : s;
}

/**
 * Fills the marked elements under root: data-i18n sets the text,
 * data-i18n-placeholder the placeholder, data-i18n-title the tooltip and
 * the accessible name (icon buttons have no text of their own).
 */
export function applyI18n(root = document) {
  document.documentElement.lang = lang;
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll('[data-i18n-title]')) {
    el.title = t(el.dataset.i18nTitle);
    el.setAttribute('aria-label', el.title);
  }
}

/** Switches the language, remembers it and redraws the page. */
export function setLang(next) {
  if (next !== 'ru' && next !== 'en') return;
  lang = next;
  localStorage.setItem(KEY, next);
  applyI18n();
  document.dispatchEvent(new CustomEvent(changeEvent));
}

/**
 * Adds a page's own strings ({ru: {...}, en: {...}}) to the shared ones:
 * the admin panel keeps its many texts in a module of its own, so the
 * other pages do not load them.
 */
export function addStrings(more) {
  for (const l of ['ru', 'en']) Object.assign(strings[l], more[l] || {});
}

/** Calls fn after every language switch. */
export function onLangChange(fn) {
  document.addEventListener(changeEvent, fn);
}
