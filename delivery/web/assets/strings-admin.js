// The admin panel's shell and shared texts in Russian and English. Each
// tab module adds its own texts (addStrings) when it is first opened.
export const adminStrings = {
  ru: {
    'nav.admin': 'Администрирование', 'admin.signOut': 'Выйти',
    'tab.overview': 'Обзор', 'tab.library': 'Библиотека', 'tab.search': 'Смысловой поиск', 'tab.torrents': 'Торренты',
    'tab.plugins': 'Плагины', 'tab.ai': 'ИИ', 'tab.logs': 'Журналы', 'tab.speech': 'Речь', 'tab.users': 'Пользователи',
    'admin.notAdmin': 'Вы не администратор',
    'admin.notAdminText': 'Учётная запись {email} не может управлять сервером. Попросите администратора выдать права или войдите под другой учётной записью.',
    'admin.toPlayer': 'Открыть плеер', 'admin.otherAccount': 'Войти под другой учётной записью',
    'admin.tabFailed': 'Эту вкладку не удалось открыть.', 'admin.empty': 'Пусто',
    'admin.prev': 'Назад', 'admin.next': 'Дальше', 'admin.range': '{from}–{to} из {total}',
    'admin.saved': 'Сохранено', 'admin.deleted': 'Удалено', 'admin.started': 'Запущено', 'admin.cancelled': 'Отменено',
    'admin.confirmDelete': 'Удалить {what}?', 'admin.yes': 'Да', 'admin.no': 'Нет',
  },
  en: {
    'nav.admin': 'Administration', 'admin.signOut': 'Sign out',
    'tab.overview': 'Overview', 'tab.library': 'Library', 'tab.search': 'Semantic search', 'tab.torrents': 'Torrents',
    'tab.plugins': 'Plugins', 'tab.ai': 'AI', 'tab.logs': 'Logs', 'tab.speech': 'Speech', 'tab.users': 'Users',
    'admin.notAdmin': 'You are not an administrator',
    'admin.notAdminText': 'The account {email} cannot manage the server. Ask an administrator for the role, or sign in with another account.',
    'admin.toPlayer': 'Open the player', 'admin.otherAccount': 'Sign in with another account',
    'admin.tabFailed': 'This tab could not be opened.', 'admin.empty': 'Nothing here',
    'admin.prev': 'Previous', 'admin.next': 'Next', 'admin.range': '{from}–{to} of {total}',
    'admin.saved': 'Saved', 'admin.deleted': 'Deleted', 'admin.started': 'Started', 'admin.cancelled': 'Cancelled',
    'admin.confirmDelete': 'Delete {what}?', 'admin.yes': 'Yes', 'admin.no': 'No',
  },
};
