// Package mediaorganizer is the media_organizer plugin: it answers chat
// questions about the library in Russian and English — how many movies or
// series there are, start a scan, list duplicates, run an audit — with
// real numbers from the library use case. Anything else passes to the
// next plugin.
package mediaorganizer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"mediateka/domain"
	"mediateka/usecase/library"
	"mediateka/usecase/textmatch"
)

// Library is what the organizer asks of the media library.
type Library interface {
	Stats(ctx context.Context) (library.Stats, error)
	StartScan(req library.ScanRequest) (string, error)
	ScanStatus() library.Status
	Audit(ctx context.Context) (library.AuditReport, error)
	Duplicates(ctx context.Context) ([]library.DuplicateGroup, error)
}

// ScanWatcher tells a person how a scan they started from the chat ended,
// in their next chat answer. WatchScan returns false when it cannot (it is
// not listening for scans, or the person has no account), and the plugin
// then promises nothing.
type ScanWatcher interface {
	WatchScan(userID int64, scanID string) bool
}

// Counter answers counting questions narrower than the whole library
// ("сколько серий в Кухне") from the catalogue; ok is false when message
// is not such a question.
type Counter interface {
	Count(ctx context.Context, message string) (answer string, ok bool, err error)
}

// Deps are what the plugin uses. Without a Library the plugin does not
// load; Notices may be nil. Counter is set when the chat's model cannot
// read the catalogue itself (a remote provider); nil passes scoped counts
// on to the model, as the offline assistant answers them.
type Deps struct {
	Library Library
	Notices ScanWatcher
	Counter Counter
	Logger  *slog.Logger
}

// Plugin is the media organizer.
type Plugin struct {
	domain.NoBackground
	lib     Library
	notices ScanWatcher
	counter Counter
	log     *slog.Logger
}

// New builds the plugin. It needs no AI model: every answer comes from the
// library itself, so it works with no model configured.
func New(d Deps) *Plugin {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	return &Plugin{lib: d.Library, notices: d.Notices, counter: d.Counter, log: d.Logger}
}

// Name implements domain.Plugin.
func (p *Plugin) Name() string { return "media_organizer" }

// Description implements domain.Plugin.
func (p *Plugin) Description() string {
	return "Answers questions about the media library: counts, scans, duplicates and audits (Russian and English)"
}

// Setup declines to load without a library to ask.
func (p *Plugin) Setup(context.Context) (bool, error) { return p.lib != nil, nil }

// Handle answers a library question, or returns "" to pass the message on.
// Scans, scan status, audits, duplicate reports and classification are what
// the admin endpoints do, so a caller who is not an administrator (or a
// context with no caller at all) gets a short refusal in the message's
// language and nothing starts.
func (p *Plugin) Handle(ctx context.Context, message string) (string, error) {
	words := strings.Fields(textmatch.Normalize(message))
	in := detect(words)
	if in == intentNone {
		return p.scopedCount(ctx, words, message)
	}
	lang := textmatch.AnswerLang(ctx, message)
	caller, _ := domain.CallerFrom(ctx)
	if in.adminOnly() && !caller.Admin {
		return textmatch.AdminOnly(lang), nil
	}
	switch in {
	case intentScan:
		return p.scan(caller, lang), nil
	case intentScanStatus:
		return p.scanStatus(lang), nil
	case intentDuplicates:
		return p.duplicates(ctx, lang)
	case intentAudit:
		return p.audit(ctx, lang)
	case intentClassify:
		return classifyHint.In(lang), nil
	}
	return p.count(ctx, words, lang)
}

// classifyHint answers an administrator's request to classify: the job
// needs the AI model and runs from the admin API, not from the chat.
var classifyHint = textmatch.Phrase{
	RU: "Классификацию запускает администратор через POST /api/media-admin/classify: она заполняет недостающие данные с помощью AI-модели.",
	EN: "Classification is started through POST /api/media-admin/classify: it fills missing metadata with the AI model.",
}

// scan starts a scan of the whole library. When the notices can tell the
// caller how it ended, the answer says so; it never promises more.
func (p *Plugin) scan(caller domain.Caller, lang string) string {
	id, err := p.lib.StartScan(library.ScanRequest{})
	switch {
	case err == nil && p.notices != nil && p.notices.WatchScan(caller.UserID, id):
		return textmatch.Pick(lang, "Сканирование библиотеки запущено. Когда оно закончится, я скажу об этом здесь, в чате, — в ответе на ваше следующее сообщение. Как оно идёт — спросите «статус сканирования».",
			"The library scan has started. I'll tell you in this chat when it ends (in my answer to your next message); progress: ask “scan status”.")
	case err == nil:
		return textmatch.Pick(lang, "Сканирование библиотеки запущено. Как оно идёт — спросите «статус сканирования».",
			"The library scan has started. Progress: ask “scan status”.")
	case errors.Is(err, domain.ErrScanRunning):
		return textmatch.Pick(lang, "Сканирование уже идёт — дождитесь, пока оно закончится.", "A scan is already running; wait for it to finish.")
	case errors.Is(err, domain.ErrNoRoots):
		return textmatch.Pick(lang, "Папки библиотеки не настроены: добавьте их в search_dirs.json.",
			"No library folders are configured: add them to search_dirs.json.")
	}
	p.log.Warn("media_organizer could not start a scan", "err", err.Error())
	// The cause is in the log; a chat answer never carries raw error text.
	return textmatch.Pick(lang, "Не получилось запустить сканирование — причина записана в журнал сервера.",
		"Could not start the scan; the reason is in the server log.")
}

func (p *Plugin) duplicates(ctx context.Context, lang string) (string, error) {
	groups, err := p.lib.Duplicates(ctx)
	if err != nil {
		return "", fmt.Errorf("find duplicates: %w", err)
	}
	if len(groups) == 0 {
		return textmatch.Pick(lang, "Дубликатов не найдено.", "No duplicates found."), nil
	}
	var b strings.Builder
	if lang == domain.LangRussian {
		fmt.Fprintf(&b, "Найдено %d %s дубликатов:", len(groups), textmatch.PluralRu(len(groups), "группа", "группы", "групп"))
	} else {
		fmt.Fprintf(&b, "Found %d duplicate %s:", len(groups), textmatch.PluralEn(len(groups), "group", "groups"))
	}
	for i, g := range groups {
		if i == 5 {
			b.WriteString(textmatch.Pick(lang, "\n…и другие.", "\n…and more."))
			break
		}
		fmt.Fprintf(&b, "\n• %s — %d %s (%s)", titleOf(g.Entries[0]), len(g.Entries),
			textmatch.Pick(lang, textmatch.PluralRu(len(g.Entries), "копия", "копии", "копий"), textmatch.PluralEn(len(g.Entries), "copy", "copies")), reason(g.Reason, lang))
	}
	return b.String(), nil
}

func (p *Plugin) audit(ctx context.Context, lang string) (string, error) {
	rep, err := p.lib.Audit(ctx)
	if errors.Is(err, domain.ErrAuditRunning) {
		return textmatch.Pick(lang, "Аудит уже идёт — дождитесь, пока он закончится.", "An audit is already running; wait for it to finish."), nil
	}
	if err != nil {
		return "", fmt.Errorf("audit the library: %w", err)
	}
	s := rep.Summary
	if lang == domain.LangRussian {
		return fmt.Sprintf("Аудит завершён: проверено записей — %d, проблем — %d. Нет файла: %d; файлов нет в каталоге: %d; "+
			"дубликатов: %d; без названия или года: %d; потерянных записей: %d.", rep.Checked, rep.Total,
			s[library.IssueMissingFile], s[library.IssueUnregisteredFile], s[library.IssueDuplicate],
			s[library.IssueIncompleteMetadata], s[library.IssueOrphan]), nil
	}
	return fmt.Sprintf("Audit done: %d records checked, %d issues. Missing files: %d; files not in the catalogue: %d; "+
		"duplicates: %d; without a title or year: %d; orphans: %d.", rep.Checked, rep.Total,
		s[library.IssueMissingFile], s[library.IssueUnregisteredFile], s[library.IssueDuplicate],
		s[library.IssueIncompleteMetadata], s[library.IssueOrphan]), nil
}

func (p *Plugin) count(ctx context.Context, words []string, lang string) (string, error) {
	st, err := p.lib.Stats(ctx)
	if err != nil {
		return "", fmt.Errorf("count the library: %w", err)
	}
	var parts []string
	for _, k := range countKinds(words) {
		parts = append(parts, countPhrase(k, st, lang == domain.LangRussian))
	}
	if lang == domain.LangRussian {
		return "В библиотеке " + strings.Join(parts, ", ") + ".", nil
	}
	return "The library has " + strings.Join(parts, ", ") + ".", nil
}

func titleOf(m domain.Media) string {
	t := m.Title
	if t == "" {
		t = m.Path
	}
	if m.Year != nil {
		t = fmt.Sprintf("«%s» (%d)", t, *m.Year)
	} else {
		t = "«" + t + "»"
	}
	return t
}

func reason(r string, lang string) string {
	if r == library.DuplicateSameContent {
		return textmatch.Pick(lang, "одинаковое содержимое", "same content")
	}
	return textmatch.Pick(lang, "одинаковые название и год", "same title and year")
}

// scopedCount answers a count narrower than the whole library through the
// Counter, or passes the message on ("") when there is none or the
// message is not a count.
func (p *Plugin) scopedCount(ctx context.Context, words []string, message string) (string, error) {
	if p.counter == nil || !(word(words, "сколько") || phrase(words, "how", "many")) {
		return "", nil
	}
	answer, ok, err := p.counter.Count(ctx, message)
	if err != nil || !ok {
		return "", err
	}
	return answer, nil
}
