// The page's own bridge to Telegram's Mini App host, so that no
// third-party script runs on the page. When something already put a
// window.Telegram.WebApp there (Telegram's own script on another page of
// the same webview, or a test), it is used. Otherwise the launch
// parameters are read from the address's fragment, as Telegram passes
// them (tgWebAppData, tgWebAppThemeParams), and the Mini Apps protocol is
// spoken directly: methods go out through
// window.TelegramWebviewProxy.postEvent(name, json) in the mobile and
// desktop apps and as {eventType, eventData} JSON through
// window.parent.postMessage in the web client (an iframe); events come
// back through window.Telegram.WebView.receiveEvent(name, data) or as
// messages from the parent frame. Without either, it is a plain browser:
// telegram() answers null.

const webOrigin = 'https://web.telegram.org';

/** Colours of Telegram's themeParams → the page's CSS variables (app.css). */
const colourVars = {
  bg_color: ['--bg'],
  section_bg_color: ['--surface'],
  secondary_bg_color: ['--surface-2'],
  text_color: ['--fg'],
  hint_color: ['--muted'],
  button_color: ['--accent'],
  button_text_color: ['--accent-fg'],
  section_separator_color: ['--border'],
  destructive_text_color: ['--err'],
};

const isColour = (v) => typeof v === 'string' && /^#[0-9a-f]{6}$/i.test(v);

/** Whether a #rrggbb background is dark (relative luminance under one half). */
function isDark(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5;
}

/**
 * Applies Telegram's theme: its colours become the page's variables (a
 * missing one keeps the page's own), and data-theme follows the colour
 * scheme Telegram names, else the background's lightness.
 */
function applyTheme(params, scheme) {
  const root = document.documentElement;
  const p = params || {};
  if (!isColour(p.section_bg_color) && isColour(p.bg_color)) p.section_bg_color = p.secondary_bg_color || p.bg_color;
  for (const [key, vars] of Object.entries(colourVars)) {
    for (const v of vars) {
      if (isColour(p[key])) root.style.setProperty(v, p[key]);
      else root.style.removeProperty(v);
    }
  }
  root.dataset.theme = scheme === 'dark' || scheme === 'light' ? scheme : isColour(p.bg_color) && isDark(p.bg_color) ? 'dark' : 'light';
}

/** One side of an inset: a number of CSS pixels, else 0. */
const side = (v) => (Number.isFinite(v) && v > 0 ? v : 0);

/**
 * Applies Telegram's insets (Mini Apps 8.0): the device's safe area
 * (notches, system bars) plus the content's (Telegram's own header and
 * buttons in full screen) become --tg-inset-top/right/bottom/left, which
 * app.css takes where they exceed the browser's env(safe-area-inset-*).
 */
function applyInsets(safe, content) {
  const root = document.documentElement;
  for (const k of ['top', 'right', 'bottom', 'left']) {
    root.style.setProperty('--tg-inset-' + k, side((safe || {})[k]) + side((content || {})[k]) + 'px');
  }
}

/** The launch parameters Telegram put into the fragment, or null. */
function fromFragment() {
  const q = new URLSearchParams(location.hash.slice(1));
  const initData = q.get('tgWebAppData');
  if (!initData) return null;
  let theme = {};
  try { theme = JSON.parse(q.get('tgWebAppThemeParams') || '{}') || {}; } catch { theme = {}; }
  let user = {};
  try { user = JSON.parse(new URLSearchParams(initData).get('user') || '{}') || {}; } catch { user = {}; }
  return { initData, theme, lang: user.language_code || '' };
}

/** Sends a Mini Apps method to the host. */
function postEvent(eventType, eventData) {
  const proxy = window.TelegramWebviewProxy;
  if (proxy && typeof proxy.postEvent === 'function') {
    proxy.postEvent(eventType, JSON.stringify(eventData ?? null));
  } else if (window.parent !== window) {
    window.parent.postMessage(JSON.stringify({ eventType, eventData }), webOrigin);
  }
}

/** Calls fn(eventType, eventData) for every event the host sends. */
function listen(fn) {
  window.Telegram = window.Telegram || {};
  const previous = window.Telegram.WebView && window.Telegram.WebView.receiveEvent;
  window.Telegram.WebView = Object.assign(window.Telegram.WebView || {}, {
    receiveEvent(name, data) { fn(name, data); if (previous) previous(name, data); },
  });
  addEventListener('message', (e) => {
    if (e.source !== window.parent || e.origin !== webOrigin) return;
    let m;
    try { m = typeof e.data === 'string' ? JSON.parse(e.data) : e.data; } catch { return; }
    if (m && typeof m.eventType === 'string') fn(m.eventType, m.eventData);
  });
}

/** The host seen through a window.Telegram.WebApp object. */
function viaWebApp(wa) {
  let onBack = null;
  return {
    initData: wa.initData,
    lang: (wa.initDataUnsafe && wa.initDataUnsafe.user && wa.initDataUnsafe.user.language_code) || '',
    start() {
      applyTheme(wa.themeParams, wa.colorScheme);
      const insets = () => applyInsets(wa.safeAreaInset, wa.contentSafeAreaInset);
      insets();
      if (typeof wa.onEvent === 'function') {
        wa.onEvent('themeChanged', () => applyTheme(wa.themeParams, wa.colorScheme));
        wa.onEvent('safeAreaChanged', insets);
        wa.onEvent('contentSafeAreaChanged', insets);
      }
      if (typeof wa.ready === 'function') wa.ready();
      if (typeof wa.expand === 'function') wa.expand();
    },
    backButton(visible, fn) {
      const bb = wa.BackButton;
      if (!bb) return;
      if (onBack && typeof bb.offClick === 'function') bb.offClick(onBack);
      onBack = visible ? fn : null;
      if (visible) { bb.onClick(fn); bb.show(); } else bb.hide();
    },
  };
}

/** The host spoken to through the Mini Apps protocol. */
function viaProtocol(launch) {
  let onBack = null;
  let theme = launch.theme;
  return {
    initData: launch.initData,
    lang: launch.lang,
    start() {
      applyTheme(theme);
      let safe = {};
      let content = {};
      listen((name, data) => {
        if (name === 'back_button_pressed' && onBack) onBack();
        if (name === 'theme_changed' && data && data.theme_params) { theme = data.theme_params; applyTheme(theme); }
        if (name === 'safe_area_changed' && data) { safe = data; applyInsets(safe, content); }
        if (name === 'content_safe_area_changed' && data) { content = data; applyInsets(safe, content); }
      });
      postEvent('web_app_ready');
      postEvent('web_app_expand');
      postEvent('web_app_request_safe_area');
      postEvent('web_app_request_content_safe_area');
    },
    backButton(visible, fn) {
      onBack = visible ? fn : null;
      postEvent('web_app_setup_back_button', { is_visible: !!visible });
    },
  };
}

/**
 * The Telegram host the page runs in, or null in a plain browser:
 * {initData, lang, start(): theme, safe areas, ready and expand, backButton(visible, onClick)}.
 */
export function telegram() {
  const wa = window.Telegram && window.Telegram.WebApp;
  if (wa && wa.initData) return viaWebApp(wa);
  const launch = fromFragment();
  return launch ? viaProtocol(launch) : null;
}
