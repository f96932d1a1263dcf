// The Mini App's assistant: the same chat as POST /api/chat, with the
// conversation so far sent as history (the last 20 turns: the API takes
// at most 50 items).
import { api, readable } from './api.js';
import { t } from './i18n.js';
import { el } from './ui.js';

const $ = (id) => document.getElementById(id);
const keep = 20;

/** Wires the chat view. */
export function createChat() {
  const history = [];
  const log = $('chat-log');
  const say = (role, text) => {
    const item = el('li', { class: 'msg ' + role }, text);
    log.append(item);
    item.scrollIntoView({ block: 'end', behavior: 'smooth' });
    return item;
  };
  $('chat-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const input = $('chat-input');
    const message = input.value.trim();
    if (!message) return;
    input.value = '';
    say('user', message);
    const pending = say('model pending', t('tg.chat.thinking'));
    try {
      const r = await api('/api/chat', { method: 'POST', body: { message, history: history.slice(-keep) } });
      pending.textContent = r.response;
      pending.className = 'msg model';
      history.push({ role: 'user', text: message }, { role: 'model', text: r.response });
    } catch (err) {
      pending.textContent = readable(err);
      pending.className = 'msg error';
    }
  });
}
