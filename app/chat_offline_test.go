package app

import (
	"mediateka/repository/aimodel/aifake"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chatAs posts a message (with history: user, model, user… turns) to
// /api/chat and returns the answer's body.
func (la *libApp) chatAs(t *testing.T, token, message string, history ...string) map[string]any {
	t.Helper()
	turns := make([]map[string]string, len(history))
	for i, h := range history {
		turns[i] = map[string]string{"role": []string{"user", "model"}[i%2], "text": h}
	}
	resp, body := la.do(t, "POST", "/api/chat", token, map[string]any{"message": message, "history": turns})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	return body
}

// An administrator who starts a scan from the chat is told, at the start of
// their next answer after it ended, how it went; once, and nobody else.
func TestAScanStartedFromTheChatIsToldInTheNextAnswer(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, libraryFiles())
	addr, stop := runOnLoopback(t, la.testApp)
	defer func() { _ = stop() }()
	require.Eventually(t, func() bool { // every component has started once the server answers
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			_ = resp.Body.Close()
		}
		return err == nil
	}, 10*time.Second, 10*time.Millisecond)

	started := la.chatAs(t, la.admin, "Просканируй библиотеку")
	assert.Equal(t, "media_organizer", started["handled_by"])
	assert.Equal(t, "Сканирование библиотеки запущено. Когда оно закончится, я скажу об этом здесь, в чате, — "+
		"в ответе на ваше следующее сообщение. Как оно идёт — спросите «статус сканирования».", started["response"])
	require.Eventually(t, func() bool {
		_, st := la.do(t, "GET", "/api/media-admin/scan/status", la.admin, nil)
		return st["state"] == "completed"
	}, 10*time.Second, 10*time.Millisecond)

	// The notice comes through the event bus: wait until it is there.
	var next map[string]any
	require.Eventually(t, func() bool {
		next = la.chatAs(t, la.admin, "привет")
		return strings.HasPrefix(next["response"].(string), "Сканирование закончено")
	}, 5*time.Second, 20*time.Millisecond)
	assert.True(t, strings.HasPrefix(next["response"].(string),
		"Сканирование закончено: добавлено: 6, обновлено: 0, пропало: 0.\n\nПривет!"), "%v", next["response"])
	assert.Equal(t, "model", next["handled_by"])
	assert.Equal(t, "offline", next["model"])

	again := la.chatAs(t, la.admin, "привет")
	assert.NotContains(t, again["response"], "Сканирование закончено", "told once")
	status := la.chatAs(t, la.admin, "scan status")
	assert.Equal(t, "The last scan finished: 6 added, 0 updated, 0 missing (files seen: 6).", status["response"])
	assert.NotContains(t, la.chatAs(t, la.user, "привет")["response"], "Сканирование закончено", "only the one who started it")
}

// Without Run nothing listens to the bus, so the chat promises no notice.
func TestNoNoticeIsPromisedWhenNothingListens(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, libraryFiles())
	started := la.chatAs(t, la.admin, "scan the library")
	assert.Equal(t, "The library scan has started. Progress: ask “scan status”.", started["response"])
	require.Eventually(t, func() bool {
		_, st := la.do(t, "GET", "/api/media-admin/scan/status", la.admin, nil)
		return st["state"] == "completed"
	}, 10*time.Second, 10*time.Millisecond)
}

// With no AI provider the offline assistant answers scoped questions from
// the catalogue, says once per conversation that no model is configured,
// and lists subtitle files whichever path answers.
func TestOfflineAssistantAnswersTheQuestionAsked(t *testing.T) {
	t.Parallel()
	la := newLibApp(t, nil)
	la.put(t, libraryFiles())
	la.scan(t)

	first := la.chatAs(t, la.user, "сколько серий в Breaking Bad?")
	assert.Equal(t, "model", first["handled_by"], "media_organizer passes a scoped count on")
	assert.Equal(t, "offline", first["model"])
	answer := first["response"].(string)
	assert.Contains(t, answer, "«Breaking Bad» (2008) в каталоге 3 серии (2 сезона)")
	assert.Contains(t, answer, "AI-модель не настроена")

	next := la.chatAs(t, la.user, "how many films are on Disk 1", "сколько серий в Breaking Bad?", answer)
	assert.Contains(t, next["response"], "The catalogue has 2 movies (disk “Disk 1”)")
	assert.NotContains(t, next["response"], "No AI model", "the disclaimer was said in this conversation")

	whole := la.chatAs(t, la.user, "сколько у меня фильмов?")
	assert.Equal(t, "media_organizer", whole["handled_by"], "a whole-library count stays with media_organizer")
	assert.Equal(t, "В библиотеке 2 фильма.", whole["response"])

	subs := la.chatAs(t, la.user, "which subtitles does The Matrix have?")
	assert.Equal(t, "media_layer", subs["handled_by"])
	assert.Contains(t, subs["response"], "1. Русский — The.Matrix.1999.1080p.BluRay.x264-GROUP.ru.srt")
}

// With a remote model configured, which cannot read the catalogue,
// media_organizer answers scoped counts from the catalogue itself instead
// of handing them to the model; questions it does not count still reach
// the model.
func TestScopedCountsWithARemoteModel(t *testing.T) {
	t.Parallel()
	fake := aifake.NewGemini(t)
	fake.SetReply("Посмотрите «Сталкер».")
	la := newLibAppEnv(t, nil, geminiEnv(fake))
	resp, _ := la.do(t, "POST", "/api/keys", la.admin, map[string]any{"key_name": "main", "api_key": "AIzaSy-COUNT-KEY-123456"})
	require.Equal(t, 201, resp.StatusCode)
	la.put(t, libraryFiles())
	la.scan(t)

	count := la.chatAs(t, la.user, "сколько серий в Breaking Bad?")
	assert.Equal(t, "media_organizer", count["handled_by"])
	assert.Contains(t, count["response"], "«Breaking Bad» (2008) в каталоге 3 серии (2 сезона)")
	assert.NotContains(t, count["response"], "AI-модель не настроена", "a model is configured")

	disk := la.chatAs(t, la.user, "how many films are on Disk 1")
	assert.Contains(t, disk["response"], "The catalogue has 2 movies (disk “Disk 1”)")

	other := la.chatAs(t, la.user, "что посмотреть?")
	assert.Equal(t, "model", other["handled_by"])
	assert.Equal(t, "Посмотрите «Сталкер».", other["response"])
}

// With media_layer switched off the offline assistant answers subtitle
// questions, with the files beside the video.
func TestSubtitleFilesWithoutMediaLayer(t *testing.T) {
	t.Parallel()
	la := newLibAppEnv(t, nil, map[string]string{"DISABLED_PLUGINS": "media_layer"})
	la.put(t, libraryFiles())
	la.scan(t)
	subs := la.chatAs(t, la.user, "какие субтитры у The Matrix")
	assert.Equal(t, "model", subs["handled_by"])
	assert.Contains(t, subs["response"], "1. Русский — The.Matrix.1999.1080p.BluRay.x264-GROUP.ru.srt")
}
