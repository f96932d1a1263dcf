package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"mediateka/repository/aimodel/aifake"
)

const classifyKey = "AIzaSy-CLASSIFY-KEY-0123456789"

// matrixAnswer is a valid answer about The Matrix.
const matrixAnswer = `{"title_ru": "Матрица", "title_orig": "The Matrix", "year": 1999, "main_category": "action",
	"genres": ["фантастика", "боевик"], "country": "США", "directors": ["Лана Вачовски", "Лилли Вачовски"],
	"cast": ["Киану Ривз", "Лоренс Фишбёрн"], "plot": "Хакер Нео узнаёт, что мир — симуляция.",
	"why_watch": "Эталон фантастического боевика.", "mood": "напряжённое", "atmosphere": "холодный неон",
	"final_verdict": "Смотреть обязательно."}`

// classifyApp is a library app whose model is a fake Gemini with one key.
func classifyApp(t *testing.T, extra map[string]string) (*libApp, *aifake.Gemini) {
	t.Helper()
	fake := aifake.NewGemini(t)
	env := geminiEnv(fake)
	for k, v := range extra {
		env[k] = v
	}
	la := newLibAppEnv(t, nil, env)
	resp, body := la.do(t, "POST", "/api/keys", la.admin, map[string]any{"key_name": "main", "api_key": classifyKey})
	require.Equal(t, 201, resp.StatusCode, "%v", body)
	return la, fake
}

// classify starts a job with body and waits for its end.
func (la *libApp) classify(t *testing.T, body any) map[string]any {
	t.Helper()
	resp, out := la.do(t, "POST", "/api/media-admin/classify", la.admin, body)
	require.Equal(t, 202, resp.StatusCode, "%v", out)
	assert.Equal(t, map[string]any{"status": "started"}, out)
	return la.waitClassify(t)
}

func (la *libApp) waitClassify(t *testing.T) map[string]any {
	t.Helper()
	var st map[string]any
	require.Eventually(t, func() bool {
		_, st = la.do(t, "GET", "/api/media-admin/classify/status", la.admin, nil)
		return st["state"] != "running" && st["state"] != "idle"
	}, 10*time.Second, 10*time.Millisecond)
	return st
}

func (la *libApp) entry(t *testing.T, id int64) map[string]any {
	t.Helper()
	resp, body := la.do(t, "GET", fmt.Sprintf("/api/media/%d", id), la.user, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	return body
}

func TestClassifyFillsMissingFieldsAndKeepsEdits(t *testing.T) {
	t.Parallel()
	la, fake := classifyApp(t, nil)
	la.put(t, map[string]string{
		"Фильмы/Фантастика/The.Matrix.1999.1080p.mkv": "m",
		"Сериалы/Dark/Season 1/Dark.S01E01.mkv":       "e1",
		"Сериалы/Dark/Season 1/Dark.S01E02.mkv":       "e2",
	})
	la.scan(t)
	matrix := la.idOf(t, "Фильмы/Фантастика/The.Matrix.1999.1080p.mkv")
	resp, body := la.do(t, "PATCH", fmt.Sprintf("/api/media-admin/media/%d", matrix), la.admin, map[string]any{"plot": "Мой пересказ."})
	require.Equal(t, 200, resp.StatusCode, "%v", body)
	fake.SetReplyFunc(func(r aifake.Request) string {
		if strings.Contains(r.Message, "Matrix") {
			return matrixAnswer
		}
		return `{"title_ru": "Тьма", "title_orig": "Dark", "year": 2017, "main_category": "sci_fi", "genres": null,
			"country": "Германия", "directors": null, "cast": null, "plot": null, "why_watch": null, "mood": null,
			"atmosphere": null, "final_verdict": null}`
	})

	st := la.classify(t, nil)
	assert.Equal(t, "completed", st["state"], "%v", st)
	assert.EqualValues(t, 2, st["total"], "the movie and the series; seasons and episodes are not asked about")
	assert.EqualValues(t, 2, st["indexed"])
	assert.EqualValues(t, 0, st["failed"])
	assert.Equal(t, "gemini/gemini-2.5-flash", st["provider"])
	assert.Nil(t, st["dimensions"])
	assert.NotNil(t, st["built_at"])
	assert.Len(t, fake.Requests(), 2)

	m := la.entry(t, matrix)
	assert.Equal(t, "Матрица", m["title_ru"])
	assert.Equal(t, "The Matrix", m["title_orig"])
	assert.EqualValues(t, 1999, m["year"])
	assert.Equal(t, "sci_fi", m["main_category"], "the category the folder gave is kept, not replaced")
	assert.Equal(t, []any{"Лана Вачовски", "Лилли Вачовски"}, m["directors"])
	assert.Equal(t, "Смотреть обязательно.", m["final_verdict"])
	assert.Equal(t, "Мой пересказ.", m["plot"], "a person's edit is never overwritten")
	assert.Equal(t, []any{"plot"}, m["edited_fields"], "classification does not mark fields as a person's")

	var matrixReq aifake.Request
	for _, r := range fake.Requests() {
		if strings.Contains(r.Message, "Matrix") {
			matrixReq = r
		}
	}
	assert.Contains(t, matrixReq.Message, "The.Matrix.1999.1080p.mkv")
	assert.Contains(t, matrixReq.Message, `"folders":["library","Фильмы","Фантастика"]`)
	assert.NotContains(t, matrixReq.Message, la.root, "the machine's own path stays home")
	assert.Equal(t, "application/json", matrixReq.Format)
	var schema map[string]any
	require.NoError(t, json.Unmarshal(matrixReq.Schema, &schema), "the request carried the schema")
	assert.Equal(t, false, schema["additionalProperties"])
	assert.Contains(t, string(matrixReq.Schema), `"sci_fi"`)

	_, body = la.do(t, "POST", "/api/media/by-title", la.user, map[string]any{"title": "тьма"})
	require.NotNil(t, body["match"], "%v", body)
	assert.Equal(t, "Тьма", body["match"].(map[string]any)["title_ru"], "the title search sees classified titles")

	st = la.classify(t, nil)
	assert.EqualValues(t, 0, st["total"], "classified entries are not asked about again")
	assert.Len(t, fake.Requests(), 2)
}

func TestClassifyWritesNothingFromABadAnswer(t *testing.T) {
	t.Parallel()
	la, fake := classifyApp(t, nil)
	answers := map[string]string{
		"Broken":   `{"title_ru": "Сломано", "year": 19`,
		"Typed":    strings.Replace(matrixAnswer, `"year": 1999`, `"year": "1999"`, 1),
		"Category": strings.Replace(matrixAnswer, `"main_category": "action"`, `"main_category": "cyberpunk"`, 1),
		"Future":   strings.Replace(matrixAnswer, `"year": 1999`, `"year": 3000`, 1),
		"Extra":    strings.Replace(matrixAnswer, `"mood"`, `"budget": 63, "mood"`, 1),
		"Good":     matrixAnswer,
	}
	files := map[string]string{}
	for name := range answers {
		files["Фильмы/"+name+".mkv"] = name
	}
	la.put(t, files)
	la.scan(t)
	before := map[string]map[string]any{}
	for name := range answers {
		before[name] = la.entry(t, la.idOf(t, "Фильмы/"+name+".mkv"))
	}
	fake.SetReplyFunc(func(r aifake.Request) string {
		for name, a := range answers {
			if strings.Contains(r.Message, `"name":"`+name+`.mkv"`) {
				return a
			}
		}
		return "?"
	})

	st := la.classify(t, nil)
	assert.Equal(t, "completed", st["state"])
	assert.EqualValues(t, 6, st["total"])
	assert.EqualValues(t, 1, st["indexed"])
	assert.EqualValues(t, 5, st["failed"])
	errs := st["errors"].([]any)
	require.Len(t, errs, 5)
	reasons := map[string]string{}
	for _, e := range errs {
		e := e.(map[string]any)
		reasons[e["title"].(string)] = e["error"].(string)
		assert.NotZero(t, e["id"])
	}
	assert.Contains(t, reasons["Typed"], "year must be int")
	assert.Contains(t, reasons["Category"], "not in the category list")
	assert.Contains(t, reasons["Future"], "outside 1900..")
	assert.Contains(t, reasons["Extra"], "unknown field")
	assert.Contains(t, reasons["Broken"], "not the expected JSON")

	for name := range answers {
		m := la.entry(t, la.idOf(t, "Фильмы/"+name+".mkv"))
		if name == "Good" {
			assert.Equal(t, "Матрица", m["title_ru"])
			continue
		}
		assert.Equal(t, before[name], m, "%s: nothing of a rejected answer is written", name)
	}

	st = la.classify(t, nil)
	assert.EqualValues(t, 5, st["total"], "entries whose answer was rejected are asked again next time")
}

func TestClassifyByIDs(t *testing.T) {
	t.Parallel()
	la, fake := classifyApp(t, nil)
	la.put(t, map[string]string{"Фильмы/One.2001.mkv": "1", "Фильмы/Two.2002.mkv": "2", "Сериалы/Show/Show.S01E01.mkv": "e"})
	la.scan(t)
	fake.SetReply(matrixAnswer)
	one, two := la.idOf(t, "Фильмы/One.2001.mkv"), la.idOf(t, "Фильмы/Two.2002.mkv")
	episode := la.idOf(t, "Сериалы/Show/Show.S01E01.mkv")

	for _, body := range []any{
		map[string]any{"ids": []int64{one, 424242, 434343}},
		map[string]any{"ids": []int64{}},
		map[string]any{"ids": []int64{-1}},
		map[string]any{"ids": "all"},
	} {
		resp, out := la.do(t, "POST", "/api/media-admin/classify", la.admin, body)
		assert.Equal(t, 400, resp.StatusCode, "%v", body)
		assert.Equal(t, "invalid_input", errCode(out), "%v", body)
		assert.Contains(t, out["error"].(map[string]any)["fields"], "ids")
	}
	_, out := la.do(t, "POST", "/api/media-admin/classify", la.admin, map[string]any{"ids": []int64{one, 424242, 434343}})
	assert.Contains(t, out["error"].(map[string]any)["fields"].(map[string]any)["ids"], "424242, 434343")
	assert.Empty(t, fake.Requests(), "a refused request asks nothing")

	st := la.classify(t, map[string]any{"ids": []int64{two, episode, two}})
	assert.EqualValues(t, 2, st["total"], "duplicates are dropped")
	assert.EqualValues(t, 1, st["indexed"])
	assert.EqualValues(t, 1, st["skipped"], "an episode is not classified")
	require.Len(t, fake.Requests(), 1)
	assert.Contains(t, fake.Last().Message, "Two.2002.mkv")
	assert.Equal(t, "Матрица", la.entry(t, two)["title_ru"])
	assert.Nil(t, la.entry(t, one)["title_ru"], "entries not named are left alone")
}

func TestClassifyRefusals(t *testing.T) {
	t.Parallel()
	t.Run("no model", func(t *testing.T) {
		la := newLibApp(t, nil)
		la.put(t, map[string]string{"Фильмы/Боевики/Heat.1995.mkv": "h"})
		la.scan(t)
		resp, body := la.do(t, "POST", "/api/media-admin/classify", la.admin, nil)
		assert.Equal(t, 503, resp.StatusCode)
		assert.Equal(t, "ai_unavailable", errCode(body))
		_, st := la.do(t, "GET", "/api/media-admin/classify/status", la.admin, nil)
		assert.Equal(t, "idle", st["state"])
		assert.Nil(t, st["provider"])
		assert.Equal(t, "action", la.entry(t, la.idOf(t, "Фильмы/Боевики/Heat.1995.mkv"))["main_category"],
			"without a model the category comes from the folder names")
	})
	t.Run("tokens", func(t *testing.T) {
		la := newLibApp(t, nil)
		for _, r := range []struct{ method, path string }{{"POST", "/api/media-admin/classify"}, {"GET", "/api/media-admin/classify/status"}} {
			resp, _ := la.do(t, r.method, r.path, "", nil)
			assert.Equal(t, 401, resp.StatusCode, r.path)
			resp, _ = la.do(t, r.method, r.path, la.user, nil)
			assert.Equal(t, 403, resp.StatusCode, r.path)
		}
	})
	t.Run("running", func(t *testing.T) {
		la, fake := classifyApp(t, nil)
		la.put(t, map[string]string{"Фильмы/Slow.2001.mkv": "s"})
		la.scan(t)
		release := make(chan struct{})
		var once sync.Once
		free := func() { once.Do(func() { close(release) }) }
		t.Cleanup(free)
		fake.SetReplyFunc(func(aifake.Request) string { <-release; return matrixAnswer })
		resp, _ := la.do(t, "POST", "/api/media-admin/classify", la.admin, nil)
		require.Equal(t, 202, resp.StatusCode)
		resp, body := la.do(t, "POST", "/api/media-admin/classify", la.admin, nil)
		assert.Equal(t, 409, resp.StatusCode)
		assert.Equal(t, "classify_running", errCode(body))
		_, st := la.do(t, "GET", "/api/media-admin/classify/status", la.admin, nil)
		assert.Equal(t, "running", st["state"])
		free()
		assert.Equal(t, "completed", la.waitClassify(t)["state"])
	})
}

func TestClassifyModelFailuresLeaveEntriesAlone(t *testing.T) {
	t.Parallel()
	la, fake := classifyApp(t, nil)
	la.put(t, map[string]string{"Фильмы/A.2001.mkv": "a", "Фильмы/B.2002.mkv": "b"})
	la.scan(t)
	fake.SetReply(matrixAnswer)

	fake.RateLimit(classifyKey)
	st := la.classify(t, nil)
	assert.Equal(t, "failed", st["state"], "%v", st)
	assert.Contains(t, st["error"], "exhausted")
	assert.EqualValues(t, 1, st["failed"], "the job stops at the first entry: every other would fail the same way")
	raw, err := json.Marshal(st)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), classifyKey)
	assert.NotContains(t, string(raw), classifyKey[len(classifyKey)-8:])
	assert.NotContains(t, la.stderr.String(), classifyKey)
	assert.Nil(t, la.entry(t, la.idOf(t, "Фильмы/A.2001.mkv"))["title_ru"])

	resp, _ := la.do(t, "POST", "/api/keys/main/reset-quota", la.admin, nil)
	require.Equal(t, 200, resp.StatusCode)
	fake.Restore(classifyKey)
	fake.FailAll(503)
	st = la.classify(t, nil)
	assert.Equal(t, "failed", st["state"], "%v", st)
	assert.NotContains(t, fmt.Sprint(st), classifyKey)
	for _, f := range []string{"Фильмы/A.2001.mkv", "Фильмы/B.2002.mkv"} {
		assert.Nil(t, la.entry(t, la.idOf(t, f))["title_ru"])
	}

	fake.FailAll(0)
	st = la.classify(t, nil)
	assert.Equal(t, "completed", st["state"], "%v", st)
	assert.EqualValues(t, 2, st["indexed"])
}

// TestClassifyAfterScanWhenEnabled also checks that New starts nothing: a
// scan finished before Run started the subscriber classifies nothing.
func TestClassifyAfterScanWhenEnabled(t *testing.T) {
	t.Parallel()
	la, fake := classifyApp(t, map[string]string{"MEDIATEKA_AI__CLASSIFY_AFTER_SCAN": "true"})
	fake.SetReply(matrixAnswer)
	la.put(t, map[string]string{"Фильмы/The.Matrix.1999.mkv": "m"})
	la.scan(t)
	id := la.idOf(t, "Фильмы/The.Matrix.1999.mkv")
	time.Sleep(300 * time.Millisecond)
	_, st := la.do(t, "GET", "/api/media-admin/classify/status", la.admin, nil)
	assert.Equal(t, "idle", st["state"], "no classification before Run")
	assert.Empty(t, fake.Requests(), "the model was not asked before Run")

	_, stop := runOnLoopback(t, la.testApp)
	defer func() { require.NoError(t, stop()) }()
	la.scan(t)
	require.Eventually(t, func() bool { return la.entry(t, id)["title_ru"] == "Матрица" }, 10*time.Second, 20*time.Millisecond)
	assert.Equal(t, "completed", la.waitClassify(t)["state"])
}

func TestClassifyThroughAnOpenAICompatibleServer(t *testing.T) {
	t.Parallel()
	fake := aifake.NewOpenAI(t)
	fake.SetReply(matrixAnswer)
	la := newLibAppEnv(t, nil, map[string]string{"MEDIATEKA_AI__PROVIDER": "openai", "MEDIATEKA_AI__BASE_URL": fake.URL(),
		"MEDIATEKA_AI__MODEL": "local-model"})
	la.put(t, map[string]string{"Фильмы/The.Matrix.1999.mkv": "m"})
	la.scan(t)

	st := la.classify(t, nil)
	assert.Equal(t, "completed", st["state"], "%v", st)
	assert.Equal(t, "openai/local-model", st["provider"])
	assert.Equal(t, "Матрица", la.entry(t, la.idOf(t, "Фильмы/The.Matrix.1999.mkv"))["title_ru"])
	req := fake.Last()
	assert.Equal(t, "json_schema", req.Format)
	assert.Contains(t, string(req.Body), `"strict":true`)
	assert.Contains(t, string(req.Schema), `"main_category"`)
	assert.Contains(t, req.Message, "The.Matrix.1999.mkv")
}

func TestShutdownCancelsAClassification(t *testing.T) {
	t.Parallel()
	la, fake := classifyApp(t, nil)
	la.put(t, map[string]string{"Фильмы/Slow.2001.mkv": "s", "Фильмы/Later.2002.mkv": "l"})
	la.scan(t)
	fake.SetReplyFunc(func(r aifake.Request) string {
		time.Sleep(200 * time.Millisecond)
		return matrixAnswer
	})
	resp, _ := la.do(t, "POST", "/api/media-admin/classify", la.admin, nil)
	require.Equal(t, 202, resp.StatusCode)
	require.Eventually(t, func() bool { return len(fake.Requests()) > 0 }, 5*time.Second, 5*time.Millisecond)
	la.Close()
	st := la.lib.classify.Status()
	assert.EqualValues(t, "cancelled", st.State)
	assert.Less(t, st.Classified, 2, "the job stopped instead of finishing the list")
}
