// Dark and light. The page follows the system's prefers-color-scheme until
// the person flips it; a flip is remembered in localStorage only while it
// differs from the system, so flipping back means "follow the system"
// again. The colours themselves are CSS variables in app.css, chosen by
// the data-theme attribute of <html>.
const KEY = 'mediateka_theme';
const system = matchMedia('(prefers-color-scheme: dark)');

const systemTheme = () => (system.matches ? 'dark' : 'light');

/** The theme in use: 'dark' or 'light'. */
export function currentTheme() {
  const stored = localStorage.getItem(KEY);
  return stored === 'dark' || stored === 'light' ? stored : systemTheme();
}

function apply() {
  document.documentElement.dataset.theme = currentTheme();
}

/** Applies the theme now and whenever the system's changes. */
export function initTheme() {
  apply();
  system.addEventListener('change', apply);
}

/** Flips between dark and light. */
export function toggleTheme() {
  const next = currentTheme() === 'dark' ? 'light' : 'dark';
  if (next === systemTheme()) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, next);
  apply();
}
