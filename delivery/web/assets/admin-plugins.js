// The admin panel's Plugins tab: every plugin in load order with its
// switch, whether it loaded and runs, and its last error. A switch is
// stored by the server and applied at once; the row is redrawn from the
// server's answer, and a refusal (plugin_not_loaded) is shown in the
// API's words with the switch put back.
import { t, addStrings } from './i18n.js';
import { el, toast, showError } from './ui.js';
import { api } from './api.js';
import { section, table, get, chip } from './admin-kit.js';

addStrings({
  ru: {
    'pl.list': 'Плагины в порядке загрузки', 'pl.order': '№', 'pl.name': 'Плагин', 'pl.enabled': 'Включён', 'pl.loaded': 'Загружен',
    'pl.running': 'Работает', 'pl.error': 'Последняя ошибка', 'pl.yes': 'да', 'pl.no': 'нет',
    'pl.on': 'Плагин {name} включён', 'pl.off': 'Плагин {name} выключен',
    'pl.note': 'Выключенный плагин пропускается в чате и останавливается. Плагин, который не загрузился, включить нельзя: причина — в последней ошибке.',
  },
  en: {
    'pl.list': 'Plugins in load order', 'pl.order': '#', 'pl.name': 'Plugin', 'pl.enabled': 'Enabled', 'pl.loaded': 'Loaded',
    'pl.running': 'Running', 'pl.error': 'Last error', 'pl.yes': 'yes', 'pl.no': 'no',
    'pl.on': 'Plugin {name} enabled', 'pl.off': 'Plugin {name} disabled',
    'pl.note': 'A disabled plugin is skipped by the chat and stopped. A plugin that did not load cannot be enabled: the last error says why.',
  },
});

const yesNo = (v, bad = 'err') => chip(t(v ? 'pl.yes' : 'pl.no'), v ? 'ok' : bad);

function toggle(p, redraw) {
  const box = el('input', { type: 'checkbox', class: 'switch', checked: p.enabled, dataset: { plugin: p.name } });
  box.setAttribute('aria-label', t('pl.enabled') + ': ' + p.name);
  box.addEventListener('change', async () => {
    const want = box.checked;
    box.disabled = true;
    try {
      const st = await api('/api/admin/plugin/' + encodeURIComponent(p.name) + '/status', { method: 'POST', body: { enabled: want } });
      toast(t(st.enabled ? 'pl.on' : 'pl.off', { name: st.name }), 'info');
      redraw(st);
    } catch (e) {
      box.checked = !want; // the server kept the old switch
      showError(e);
    } finally {
      box.disabled = false;
    }
  });
  return box;
}

export default async function mount(root) {
  const list = el('div', { id: 'pl-list' });
  root.append(section('pl.list', el('p', { class: 'note' }, t('pl.note')), list));
  let plugins = await get('/api/admin/plugins');
  const draw = () => {
    const redraw = (st) => { plugins = plugins.map((p) => (p.name === st.name ? st : p)); draw(); };
    list.replaceChildren(table([
      { label: 'pl.order', class: 'num', cell: (p) => String(p.order) },
      { label: 'pl.name', cell: (p) => [el('strong', {}, p.name), el('div', { class: 'note' }, p.description || '')] },
      { label: 'pl.enabled', cell: (p) => toggle(p, redraw) },
      { label: 'pl.loaded', cell: (p) => yesNo(p.loaded) },
      { label: 'pl.running', cell: (p) => yesNo(p.running, 'muted') },
      { label: 'pl.error', cell: (p) => (p.last_error ? el('span', { class: 'error' }, p.last_error) : '—') },
    ], plugins));
    for (const [i, tr] of list.querySelectorAll('tbody tr').entries()) if (plugins[i]) tr.dataset.plugin = plugins[i].name;
  };
  draw();
}
