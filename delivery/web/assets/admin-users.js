// The admin panel's Users tab (API.md §7): the accounts, paged; add one;
// make an account an administrator or a user; set a new password; delete
// with a confirmation; make a Telegram link code for an account (shown
// with its expiry and what to send to the bot) and remove a link. The
// server judges every rule (not deleting yourself, keeping the last
// administrator): the tab offers every action and shows the API's answer,
// success or the error message, never failing silently.
import { t, addStrings } from './i18n.js';
import { api, readable } from './api.js';
import { el, toast } from './ui.js';
import { section, action, confirmButton, pager, field, chip, formatDate } from './admin-kit.js';

addStrings({
  ru: {
    'ausr.list': 'Учётные записи', 'ausr.add': 'Новая учётная запись',
    'ausr.email': 'E-mail', 'ausr.name': 'Имя', 'ausr.password': 'Пароль', 'ausr.role': 'Роль', 'ausr.telegram': 'Telegram',
    'ausr.created': 'Создана', 'ausr.actions': 'Действия', 'ausr.you': 'вы', 'ausr.noPassword': 'без пароля',
    'ausr.roleUser': 'пользователь', 'ausr.roleAdmin': 'администратор',
    'ausr.create': 'Создать', 'ausr.created.ok': 'Учётная запись {email} создана',
    'ausr.makeAdmin': 'Сделать администратором', 'ausr.makeUser': 'Сделать пользователем',
    'ausr.roleChanged': '{email}: теперь {role}. Прежние сессии закрыты.',
    'ausr.newPassword': 'Новый пароль', 'ausr.setPassword': 'Сохранить пароль',
    'ausr.passwordChanged': 'Пароль {email} изменён. Прежние сессии закрыты.',
    'ausr.linkCode': 'Код для Telegram', 'ausr.unlink': 'Отвязать Telegram', 'ausr.unlinked': 'Telegram отвязан от {email}',
    'ausr.codeFor': 'Код привязки для {email}', 'ausr.codeUntil': 'Действует до {time}, один раз.',
    'ausr.codeHow': 'Отправьте боту /link {code}',
    'ausr.delete': 'Удалить', 'ausr.deleteAsk': 'Удалить {email}? Его история и отметки просмотра тоже удалятся.',
    'ausr.deleted': '{email} удалён', 'ausr.close': 'Закрыть', 'ausr.notLinked': 'не привязан',
    'ausr.passwordHint': 'Не короче 8 символов',
    'ausr.demoteSelfAsk': 'Сделать себя пользователем? Вы выйдете и не сможете вернуться в эту панель.',
    'ausr.passwordSelfAsk': 'Сменить свой пароль? Все ваши сессии, и эта, закроются.',
    'err.cannot_delete_self': 'Нельзя удалить собственную учётную запись — это может сделать другой администратор',
    'err.last_admin': 'Это последний администратор: сначала сделайте администратором кого-то ещё',
    'err.already_exists': 'Такой e-mail уже занят',
  },
  en: {
    'ausr.list': 'Accounts', 'ausr.add': 'New account',
    'ausr.email': 'E-mail', 'ausr.name': 'Name', 'ausr.password': 'Password', 'ausr.role': 'Role', 'ausr.telegram': 'Telegram',
    'ausr.created': 'Created', 'ausr.actions': 'Actions', 'ausr.you': 'you', 'ausr.noPassword': 'no password',
    'ausr.roleUser': 'user', 'ausr.roleAdmin': 'administrator',
    'ausr.create': 'Create', 'ausr.created.ok': 'Account {email} created',
    'ausr.makeAdmin': 'Make administrator', 'ausr.makeUser': 'Make user',
    'ausr.roleChanged': '{email} is now {role}. Earlier sessions are closed.',
    'ausr.newPassword': 'New password', 'ausr.setPassword': 'Save password',
    'ausr.passwordChanged': 'The password of {email} is changed. Earlier sessions are closed.',
    'ausr.linkCode': 'Telegram code', 'ausr.unlink': 'Unlink Telegram', 'ausr.unlinked': 'Telegram unlinked from {email}',
    'ausr.codeFor': 'Link code for {email}', 'ausr.codeUntil': 'Valid until {time}, once.',
    'ausr.codeHow': 'Send /link {code} to the bot',
    'ausr.delete': 'Delete', 'ausr.deleteAsk': 'Delete {email}? Their history and watching state go too.',
    'ausr.deleted': '{email} deleted', 'ausr.close': 'Close', 'ausr.notLinked': 'not linked',
    'ausr.passwordHint': 'At least 8 characters',
    'ausr.demoteSelfAsk': 'Make yourself a user? You are signed out and cannot come back to this panel.',
    'ausr.passwordSelfAsk': 'Change your own password? All your sessions, this one too, are closed.',
    // The refusals' English texts are the API's own messages (no en key):
    // the panel shows what the server said.
  },
});

const pageSize = 20;

/** A page of accounts and their number (X-Total-Count). */
const fetchPage = (offset) =>
  api('/api/admin/users?' + new URLSearchParams({ limit: String(pageSize), offset: String(offset) }), { total: true });

const roleText = (u) => t(u.is_admin ? 'ausr.roleAdmin' : 'ausr.roleUser');

export default async function mount(root, { user }) {
  let offset = 0;
  let page = { items: [], total: 0 };
  // open is the row whose panel shows under it: {id, kind: 'password' | 'code', code}.
  let open = null;
  const listBox = el('div', {});

  async function load() {
    try {
      page = await fetchPage(offset);
      if (!page.items.length && offset > 0) { // the last one of a page was deleted
        offset = Math.max(0, offset - pageSize);
        page = await fetchPage(offset);
      }
    } catch (e) {
      toast(readable(e));
    }
    draw();
  }

  function draw() {
    const cards = page.items.map(card);
    listBox.replaceChildren(
      cards.length ? el('ul', { class: 'user-cards' }, cards) : el('p', { class: 'note' }, t('admin.empty')),
      pager({ total: page.total, limit: pageSize, offset, onPage: (o) => { offset = o; open = null; load(); } }));
  }

  // card is one account: who, role, Telegram, created, its actions, and
  // the panel of the action in progress.
  function card(u) {
    const me = u.id === user.id;
    const linked = u.telegram_id !== null && u.telegram_id !== undefined;
    const acts = el('div', { class: 'row-actions' },
      // Demoting yourself ends your own session (and your way into this
      // panel): it asks first.
      me && u.is_admin
        ? confirmButton('ausr.makeUser', t('ausr.demoteSelfAsk'), () => changeRole(u), { kind: '', act: 'role' })
        : btn(u.is_admin ? 'ausr.makeUser' : 'ausr.makeAdmin', 'role', (b) => action(b, () => changeRole(u))),
      btn('ausr.newPassword', 'password', () => toggle(u, 'password')),
      btn('ausr.linkCode', 'code', (b) => linkCode(b, u)),
      linked ? btn('ausr.unlink', 'unlink', (b) => unlink(b, u)) : null,
      confirmButton('ausr.delete', t('ausr.deleteAsk', { email: u.email }), () => remove(u), { act: 'delete' }));
    return el('li', { class: 'user-card', dataset: { email: u.email, id: String(u.id) } },
      el('div', { class: 'user-head' }, el('strong', {}, u.name || u.email), me ? chip(t('ausr.you'), 'ok') : null,
        el('span', { class: 'role' }, chip(roleText(u), u.is_admin ? 'ok' : 'muted')),
        u.has_password ? null : chip(t('ausr.noPassword'), 'warn')),
      el('div', { class: 'mono user-email' }, u.email),
      el('dl', { class: 'kv user-meta' },
        el('dt', {}, t('ausr.telegram')), el('dd', { class: 'telegram' }, linked ? String(u.telegram_id) : t('ausr.notLinked')),
        el('dt', {}, t('ausr.created')), el('dd', {}, formatDate(u.created_at))),
      acts,
      open && open.id === u.id ? el('div', { class: 'user-panel', dataset: { panel: open.kind } }, panel(u)) : null);
  }

  function btn(key, act, fn, kind = '') {
    const b = el('button', { type: 'button', class: 'btn ' + kind, dataset: { act } }, t(key));
    b.addEventListener('click', () => fn(b));
    return b;
  }

  function toggle(u, kind) {
    open = open && open.id === u.id && open.kind === kind ? null : { id: u.id, kind };
    draw();
    const input = listBox.querySelector('.user-panel input');
    if (input) input.focus();
  }

  // panel is what shows under a row: the new password form or the link
  // code.
  function panel(u) {
    const close = el('button', { type: 'button', class: 'btn', dataset: { act: 'close' }, onclick: () => { open = null; draw(); } }, t('ausr.close'));
    if (open.kind === 'password') {
      const input = el('input', { type: 'password', name: 'new-password', autocomplete: 'new-password', placeholder: t('ausr.passwordHint') });
      // Your own new password signs you out everywhere, this page too:
      // it asks first (Enter shows the question as the button does).
      if (u.id === user.id) {
        const ask = confirmButton('ausr.setPassword', t('ausr.passwordSelfAsk'), () => changePassword(u, input.value), { kind: 'primary', act: 'password-save' });
        return el('form', { class: 'toolbar', onsubmit: (e) => { e.preventDefault(); ask.querySelector('button[data-act]')?.click(); } },
          field('ausr.newPassword', input), ask, close);
      }
      const save = el('button', { type: 'submit', class: 'btn primary', dataset: { act: 'password-save' } }, t('ausr.setPassword'));
      return el('form', { class: 'toolbar', onsubmit: (e) => { e.preventDefault(); action(save, () => changePassword(u, input.value)); } },
        field('ausr.newPassword', input), save, close);
    }
    {
      const c = open.code;
      return el('div', { class: 'linkcode' },
        el('p', {}, t('ausr.codeFor', { email: u.email })),
        el('code', { class: 'link-code mono', dataset: { code: c.code } }, c.code),
        el('p', { class: 'how' }, t('ausr.codeHow', { code: c.code })),
        el('p', { class: 'note' }, t('ausr.codeUntil', { time: formatDate(c.expires_at) })), close);
    }
  }

  // changeRole and changePassword run under action(): a refusal is its
  // toast. Either ends the account's sessions; for your own, the next
  // call signs you out.
  async function changeRole(u) {
    const out = await api('/api/admin/users/' + u.id, { method: 'PATCH', body: { role: u.is_admin ? 'user' : 'admin' } });
    toast(t('ausr.roleChanged', { email: out.email, role: roleText(out) }), 'info');
    await load();
  }

  async function changePassword(u, password) {
    const out = await api('/api/admin/users/' + u.id, { method: 'PATCH', body: { password } });
    open = null;
    toast(t('ausr.passwordChanged', { email: out.email }), 'info');
    await load();
  }

  async function linkCode(b, u) {
    const code = await action(b, () => api('/api/admin/users/' + u.id + '/telegram-link', { method: 'POST', body: {} }));
    if (!code) return;
    open = { id: u.id, kind: 'code', code };
    draw();
  }

  async function unlink(b, u) {
    const out = await action(b, () => api('/api/admin/users/' + u.id + '/telegram', { method: 'DELETE' }));
    if (!out) return;
    toast(t('ausr.unlinked', { email: out.email }), 'info');
    await load();
  }

  // remove runs under the confirmation's action(): a refusal is its toast.
  async function remove(u) {
    await api('/api/admin/users/' + u.id, { method: 'DELETE' });
    if (open && open.id === u.id) open = null;
    toast(t('ausr.deleted', { email: u.email }), 'info');
    await load();
  }

  // The first page is drawn before the tab shows, so the tab appears whole.
  await load();
  const added = async () => { offset = Math.max(0, page.total - page.total % pageSize); await load(); }; // the new one is last
  root.append(section('ausr.list', listBox), section('ausr.add', addForm(added)));
}

/** The form that adds an account; the server validates, its message shows. */
function addForm(onAdded) {
  const email = el('input', { type: 'email', name: 'email', autocomplete: 'off' });
  const name = el('input', { type: 'text', name: 'name', autocomplete: 'off' });
  const password = el('input', { type: 'password', name: 'password', autocomplete: 'new-password', placeholder: t('ausr.passwordHint') });
  const role = el('select', { name: 'role' },
    el('option', { value: 'user' }, t('ausr.roleUser')), el('option', { value: 'admin' }, t('ausr.roleAdmin')));
  const submit = el('button', { type: 'submit', class: 'btn primary' }, t('ausr.create'));
  const form = el('form', { id: 'user-add', class: 'user-add', novalidate: true },
    field('ausr.email', email), field('ausr.name', name), field('ausr.password', password), field('ausr.role', role),
    el('div', { class: 'row-actions' }, submit));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body = { email: email.value, name: name.value, password: password.value, role: role.value };
    const u = await action(submit, () => api('/api/admin/users', { method: 'POST', body }));
    if (!u) return;
    toast(t('ausr.created.ok', { email: u.email }), 'info');
    form.reset();
    await onAdded();
  });
  return form;
}
