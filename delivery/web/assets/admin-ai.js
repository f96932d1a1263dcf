// The admin panel's AI tab: the model that answers the chat, the system
// instruction it receives (save; reset restores the built-in default with
// DELETE), and the provider keys the rotation uses: add, switch off and
// on, reset a quota, delete after a confirmation. Keys are shown masked
// only: the API never returns one, and the field that takes a new key is
// emptied once it is sent.
import { t, addStrings } from './i18n.js';
import { el, toast } from './ui.js';
import { api } from './api.js';
import { section, table, get, action, confirmButton, progress, chip, field, formatDate, formatNumber } from './admin-kit.js';

addStrings({
  ru: {
    'ai.model': 'Модель', 'ai.provider': 'Провайдер', 'ai.modelName': 'Модель', 'ai.offline': 'встроенный помощник: отвечает по каталогу, без ИИ',
    'ai.instruction': 'Системная инструкция', 'ai.default': 'встроенная', 'ai.custom': 'своя, сохранена {at}',
    'ai.save': 'Сохранить', 'ai.reset': 'Вернуть встроенную', 'ai.resetDone': 'Возвращена встроенная инструкция',
    'ai.resetConfirm': 'Заменить инструкцию встроенной?', 'ai.chars': '{n} знаков',
    'ai.keys': 'Ключи API', 'ai.keyName': 'Имя', 'ai.keyProvider': 'Провайдер', 'ai.key': 'Ключ', 'ai.status': 'Состояние',
    'ai.quota': 'Запросов сегодня', 'ai.lastRun': 'Последний запрос', 'ai.actions': 'Действия', 'ai.unlimited': '{n} (без лимита)',
    'ai.disable': 'Выключить', 'ai.enable': 'Включить', 'ai.resetQuota': 'Сбросить квоту', 'ai.delete': 'Удалить',
    'ai.add': 'Добавить ключ', 'ai.newName': 'Имя ключа', 'ai.newKey': 'Ключ', 'ai.newQuota': 'Лимит в день (пусто — без лимита)',
    'ai.added': 'Ключ {name} добавлен', 'ai.enabled': 'Ключ {name} включён', 'ai.disabled': 'Ключ {name} выключен',
    'ai.quotaReset': 'Квота ключа {name} сброшена', 'ai.deleted': 'Ключ {name} удалён',
    'ks.active': 'активен', 'ks.exhausted': 'исчерпан', 'ks.disabled': 'выключен', 'ks.rejected': 'отклонён',
  },
  en: {
    'ai.model': 'Model', 'ai.provider': 'Provider', 'ai.modelName': 'Model', 'ai.offline': 'built-in assistant: answers from the catalogue, no AI',
    'ai.instruction': 'System instruction', 'ai.default': 'built-in', 'ai.custom': 'custom, saved {at}',
    'ai.save': 'Save', 'ai.reset': 'Restore the built-in one', 'ai.resetDone': 'The built-in instruction is back',
    'ai.resetConfirm': 'Replace the instruction with the built-in one?', 'ai.chars': '{n} characters',
    'ai.keys': 'API keys', 'ai.keyName': 'Name', 'ai.keyProvider': 'Provider', 'ai.key': 'Key', 'ai.status': 'Status',
    'ai.quota': 'Calls today', 'ai.lastRun': 'Last call', 'ai.actions': 'Actions', 'ai.unlimited': '{n} (unlimited)',
    'ai.disable': 'Disable', 'ai.enable': 'Enable', 'ai.resetQuota': 'Reset quota', 'ai.delete': 'Delete',
    'ai.add': 'Add a key', 'ai.newName': 'Key name', 'ai.newKey': 'Key', 'ai.newQuota': 'Daily limit (empty: unlimited)',
    'ai.added': 'Key {name} added', 'ai.enabled': 'Key {name} enabled', 'ai.disabled': 'Key {name} disabled',
    'ai.quotaReset': 'The quota of key {name} is reset', 'ai.deleted': 'Key {name} deleted',
    'ks.active': 'active', 'ks.exhausted': 'exhausted', 'ks.disabled': 'disabled', 'ks.rejected': 'rejected',
  },
});

const statusKind = { active: 'ok', exhausted: 'warn', rejected: 'err', disabled: 'muted' };
const keyURL = (name) => '/api/keys/' + encodeURIComponent(name);

function drawModel(box, si) {
  box.replaceChildren(el('dl', { class: 'kv', id: 'ai-model' },
    el('dt', {}, t('ai.provider')), el('dd', { dataset: { provider: si.provider } }, si.provider),
    el('dt', {}, t('ai.modelName')), el('dd', {}, si.provider === 'offline' ? t('ai.offline') : si.model || '—')));
}

function instructionEditor(box, si, redraw) {
  const area = el('textarea', { class: 'code', id: 'ai-instruction', maxlength: '20000', rows: '10' });
  area.value = si.content;
  area.setAttribute('aria-label', t('ai.instruction'));
  const count = el('span', { class: 'note' });
  const state = el('span', { id: 'ai-instruction-state' });
  const note = () => {
    count.textContent = t('ai.chars', { n: formatNumber([...area.value].length) });
    state.replaceChildren(si.is_default ? chip(t('ai.default')) : chip(t('ai.custom', { at: formatDate(si.updated_at) }), 'ok'));
  };
  area.addEventListener('input', note);
  note();
  const save = el('button', { type: 'button', class: 'btn primary', id: 'ai-save' }, t('ai.save'));
  save.addEventListener('click', () => action(save, async () => {
    redraw(await api('/api/admin/system_instruction', { method: 'POST', body: { content: area.value } }));
    toast(t('admin.saved'), 'info');
  }));
  const reset = confirmButton('ai.reset', t('ai.resetConfirm'), async () => {
    redraw(await api('/api/admin/system_instruction', { method: 'DELETE' }));
    toast(t('ai.resetDone'), 'info');
  }, { kind: '', id: 'ai-reset' });
  box.replaceChildren(state, area, el('div', { class: 'row-actions' }, save, reset, count));
}

function quotaCell(k) {
  if (k.daily_quota == null) return t('ai.unlimited', { n: formatNumber(k.used_today) });
  return progress(k.used_today, k.daily_quota, formatNumber(k.used_today) + ' / ' + formatNumber(k.daily_quota));
}

function keysTable(box, keys, reload) {
  const actions = (k) => {
    const on = k.status !== 'disabled';
    const sw = el('button', { type: 'button', class: 'btn', dataset: { act: on ? 'disable' : 'enable' } }, t(on ? 'ai.disable' : 'ai.enable'));
    sw.addEventListener('click', () => action(sw, async () => {
      await api(keyURL(k.key_name), { method: 'PATCH', body: { status: on ? 'disabled' : 'active' } });
      toast(t(on ? 'ai.disabled' : 'ai.enabled', { name: k.key_name }), 'info');
      await reload();
    }));
    const rq = el('button', { type: 'button', class: 'btn', dataset: { act: 'reset-quota' } }, t('ai.resetQuota'));
    rq.addEventListener('click', () => action(rq, async () => {
      await api(keyURL(k.key_name) + '/reset-quota', { method: 'POST' });
      toast(t('ai.quotaReset', { name: k.key_name }), 'info');
      await reload();
    }));
    const del = confirmButton('ai.delete', t('admin.confirmDelete', { what: k.key_name }), async () => {
      await api(keyURL(k.key_name), { method: 'DELETE' });
      toast(t('ai.deleted', { name: k.key_name }), 'info');
      await reload();
    });
    return el('div', { class: 'row-actions' }, sw, rq, del);
  };
  box.replaceChildren(table([
    { label: 'ai.keyName', cell: (k) => el('strong', {}, k.key_name) },
    { label: 'ai.keyProvider', cell: (k) => k.provider },
    { label: 'ai.key', class: 'mono', cell: (k) => k.api_key_masked },
    { label: 'ai.status', cell: (k) => chip(t('ks.' + k.status), statusKind[k.status] || 'muted') },
    { label: 'ai.quota', cell: quotaCell },
    { label: 'ai.lastRun', cell: (k) => formatDate(k.last_run) },
    { label: 'ai.actions', cell: actions },
  ], keys));
  for (const [i, tr] of box.querySelectorAll('tbody tr').entries()) if (keys[i]) tr.dataset.key = keys[i].key_name;
}

function addForm(provider, reload) {
  const name = el('input', { id: 'ai-new-name', required: true, maxlength: '64', pattern: '[A-Za-z0-9][A-Za-z0-9._\\-]*', autocomplete: 'off' });
  const key = el('input', { id: 'ai-new-key', type: 'password', required: true, maxlength: '4096', autocomplete: 'off' });
  const prov = el('input', { id: 'ai-new-provider', required: true, list: 'ai-providers', value: provider });
  const quota = el('input', { id: 'ai-new-quota', type: 'number', min: '1', step: '1', inputmode: 'numeric' });
  const list = el('datalist', { id: 'ai-providers' }, ['gemini', 'openai'].map((p) => el('option', { value: p })));
  const submit = el('button', { type: 'submit', class: 'btn primary' }, t('ai.add'));
  const form = el('form', { class: 'add-key', id: 'ai-add' },
    field('ai.newName', name), field('ai.keyProvider', prov), field('ai.newKey', key), field('ai.newQuota', quota), list,
    el('div', { class: 'row-actions' }, submit));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!form.reportValidity()) return;
    action(submit, async () => {
      const body = { key_name: name.value.trim(), api_key: key.value, provider: prov.value.trim() || 'gemini' };
      if (quota.value) body.daily_quota = Number(quota.value);
      const rec = await api('/api/keys', { method: 'POST', body });
      key.value = '';
      name.value = '';
      quota.value = '';
      toast(t('ai.added', { name: rec.key_name }), 'info');
      await reload();
    });
  });
  return form;
}

export default async function mount(root) {
  const model = el('div');
  const instruction = el('div');
  const keys = el('div', { id: 'ai-keys' });
  const [si, list] = await Promise.all([get('/api/admin/system_instruction'), get('/api/keys')]);
  const redraw = (next) => { drawModel(model, next); instructionEditor(instruction, next, redraw); };
  redraw(si);
  const reload = async () => keysTable(keys, (await get('/api/keys')).keys, reload);
  keysTable(keys, list.keys, reload);
  const provider = si.provider === 'offline' ? 'gemini' : si.provider;
  root.append(section('ai.model', model), section('ai.instruction', instruction), section('ai.keys', keys, addForm(provider, reload)));
}
