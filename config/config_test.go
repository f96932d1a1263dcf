package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func envOf(m map[string]string) LookupEnv {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.json")
	require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
	return path
}

func TestAbsentFileGivesDefaults(t *testing.T) {
	cfg, warnings, err := Load(filepath.Join(t.TempDir(), "nope.json"), envOf(nil))
	require.NoError(t, err)
	assert.Empty(t, warnings)
	assert.Equal(t, "0.0.0.0", cfg.Host)
	assert.Equal(t, 3000, cfg.Port)
	assert.Equal(t, "./data", cfg.DataDir)
	assert.Equal(t, filepath.Join("data", "logs"), filepath.Clean(cfg.LogDir))
	assert.Equal(t, 24*time.Hour, cfg.Auth.TokenTTL.D())
	assert.Equal(t, 4000, cfg.Chat.MaxMessageChars)
	assert.Equal(t, "offline", cfg.AI.Provider)
	assert.Equal(t, "espeak", cfg.TTS.Engine)
	assert.True(t, cfg.Control.AllowAnonymousRooms)
	assert.Equal(t, 1<<20, cfg.HTTP.BodyLimitBytes)
}

func TestFileThenEnvironment(t *testing.T) {
	path := writeConfig(t, `{"port": 4000, "chat": {"max_message_chars": 100}, "auth": {"token_ttl": "2h"},
		"torrent_client": {"url": "http://qb:8080"}, "workers": 4, "mystery": 1, "chat2": {}}`)
	cfg, warnings, err := Load(path, envOf(map[string]string{
		"MEDIATEKA_PORT":                           "5000",
		"MEDIATEKA_DATA_DIR":                       "/srv/mt",
		"MEDIATEKA_TORRENT_CLIENT__URL":            "http://10.0.0.2:8080",
		"MEDIATEKA_CHAT__MAX_MESSAGE_CHARS":        "200",
		"MEDIATEKA_CONTROL__ALLOW_ANONYMOUS_ROOMS": "no",
		"MEDIATEKA_GOOGLE_OAUTH__ALLOWED_EMAILS":   "a@x.org, b@x.org",
		"JWT_SECRET":                               "s3cret",
		"USE_SSL":                                  "on",
		"DISABLED_PLUGINS":                         "Telegram, rag",
		"ADMIN_EMAIL":                              "boss@example.org",
	}))
	require.NoError(t, err)
	assert.Equal(t, 5000, cfg.Port, "environment wins over the file")
	assert.Equal(t, "/srv/mt", cfg.DataDir)
	assert.Equal(t, "/srv/mt/logs", cfg.LogDir, "log dir follows the data dir")
	assert.Equal(t, "http://10.0.0.2:8080", cfg.TorrentClient.URL)
	assert.Equal(t, 200, cfg.Chat.MaxMessageChars)
	assert.Equal(t, 2*time.Hour, cfg.Auth.TokenTTL.D(), "file value kept when no env override")
	assert.False(t, cfg.Control.AllowAnonymousRooms)
	assert.Equal(t, []string{"a@x.org", "b@x.org"}, cfg.GoogleOAuth.AllowedEmails)
	assert.Equal(t, "s3cret", cfg.JWTSecret)
	assert.True(t, cfg.UseSSL)
	assert.True(t, cfg.PluginDisabled("telegram"))
	assert.True(t, cfg.PluginDisabled("RAG"))
	assert.False(t, cfg.PluginDisabled("torrents"))
	assert.Equal(t, "boss@example.org", cfg.AdminEmail)
	assert.Contains(t, warnings, `unknown key "mystery" in config.json is ignored`)
	assert.Contains(t, warnings, `unknown key "chat2" in config.json is ignored`)
	assert.Len(t, warnings, 3, "workers is warned about too")
}

func TestValidationListsEveryProblem(t *testing.T) {
	path := writeConfig(t, `{"port": 70000, "tls_cert": "/no/such/cert.pem", "tls_key": "/no/such/key.pem",
		"ai": {"provider": "skynet"}, "google_oauth": {"redirect_uri": "http://x/oauth/cb"},
		"trusted_proxies": ["10.0.0.0/8", "proxy.local"], "auth": {"max_concurrent_logins": 0}}`)
	_, _, err := Load(path, envOf(map[string]string{"MEDIATEKA_CHAT__MAX_MESSAGE_CHARS": "lots", "USE_SSL": "maybe"}))
	var inv *InvalidError
	require.ErrorAs(t, err, &inv)
	joined := inv.Error()
	for _, want := range []string{"port 70000", "tls_cert: cannot read /no/such/cert.pem", "tls_key: cannot read",
		`ai.provider "skynet"`, "redirect_uri", "MEDIATEKA_CHAT__MAX_MESSAGE_CHARS", "USE_SSL",
		`trusted_proxies: "proxy.local"`, "auth.max_concurrent_logins"} {
		assert.Contains(t, joined, want)
	}
	assert.GreaterOrEqual(t, len(inv.Problems), 9)
}

func TestTrustedProxiesFromFileAndEnvironment(t *testing.T) {
	cfg, _, err := Load(writeConfig(t, `{"trusted_proxies": ["10.0.0.0/8", "192.168.1.7", "::1"]}`), envOf(nil))
	require.NoError(t, err)
	var got []string
	for _, p := range cfg.TrustedProxyPrefixes() {
		got = append(got, p.String())
	}
	assert.Equal(t, []string{"10.0.0.0/8", "192.168.1.7/32", "::1/128"}, got)
	assert.Equal(t, 4, cfg.Auth.MaxConcurrentLogins)
	assert.Equal(t, 10000, cfg.Auth.OAuthMaxPending)

	cfg, _, err = Load(writeConfig(t, `{}`), envOf(map[string]string{"MEDIATEKA_TRUSTED_PROXIES": "172.16.0.0/12, 127.0.0.1"}))
	require.NoError(t, err)
	assert.Len(t, cfg.TrustedProxyPrefixes(), 2)
	cfg, _, err = Load(writeConfig(t, `{}`), envOf(nil))
	require.NoError(t, err)
	assert.Empty(t, cfg.TrustedProxyPrefixes(), "no proxy is trusted by default")
}

func TestMalformedJSONReportsLineAndColumn(t *testing.T) {
	path := writeConfig(t, "{\n  \"port\": 3000,\n  \"host\": \"x\",,\n}")
	_, _, err := Load(path, envOf(nil))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 3, column 15")
}

func TestWrongTypeNamesTheKey(t *testing.T) {
	path := writeConfig(t, "{\"chat\": {\"max_message_chars\": \"many\"}}")
	_, _, err := Load(path, envOf(nil))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"chat.max_message_chars"`)
	assert.Contains(t, err.Error(), "line 1")
}

func TestDurationForms(t *testing.T) {
	path := writeConfig(t, `{"http": {"shutdown_timeout": 5}, "ai": {"timeout": "90s"}}`)
	cfg, _, err := Load(path, envOf(map[string]string{"MEDIATEKA_AUTH__TOKEN_TTL": "15m"}))
	require.NoError(t, err)
	assert.Equal(t, 5*time.Second, cfg.HTTP.ShutdownTimeout.D())
	assert.Equal(t, 90*time.Second, cfg.AI.Timeout.D())
	assert.Equal(t, 15*time.Minute, cfg.Auth.TokenTTL.D())
	_, _, err = Load(path, envOf(map[string]string{"MEDIATEKA_AUTH__TOKEN_TTL": "-1h"}))
	assert.ErrorContains(t, err, "auth.token_ttl must be a positive duration")
}

func TestExampleConfigIsValid(t *testing.T) {
	cfg, warnings, err := Load(filepath.Join("..", "config.example.json"), envOf(nil))
	require.NoError(t, err)
	assert.Empty(t, warnings, "every key of the example is a real key")
	assert.Equal(t, 3000, cfg.Port)
	assert.Equal(t, "Медиатека", cfg.TgMiniApp.Name)
}

func TestHTTPTimeoutsAndSearchHistoryBounds(t *testing.T) {
	cfg, _, err := Load(writeConfig(t, `{}`), envOf(nil))
	require.NoError(t, err)
	assert.Equal(t, 30*time.Second, cfg.HTTP.WriteTimeout.D())
	assert.Equal(t, 120*time.Second, cfg.HTTP.IdleTimeout.D())
	assert.Equal(t, 100_000, cfg.SearchHistory.MaxRows)
	assert.Equal(t, 90*24*time.Hour, cfg.SearchHistory.MaxAge.D())

	path := writeConfig(t, `{"http": {"write_timeout": "5s", "idle_timeout": 0}, "search_history": {"max_rows": 0}}`)
	_, _, err = Load(path, envOf(map[string]string{"MEDIATEKA_SEARCH_HISTORY__MAX_AGE": "720h"}))
	require.Error(t, err)
	assert.ErrorContains(t, err, "http.idle_timeout must be a positive duration")
	assert.ErrorContains(t, err, "search_history.max_rows must be at least 1")
	cfg, _, err = Load(writeConfig(t, `{"http": {"write_timeout": "5s"}}`), envOf(map[string]string{"MEDIATEKA_SEARCH_HISTORY__MAX_AGE": "720h"}))
	require.NoError(t, err)
	assert.Equal(t, 5*time.Second, cfg.HTTP.WriteTimeout.D())
	assert.Equal(t, 720*time.Hour, cfg.SearchHistory.MaxAge.D())
}

func TestControlAllowedOrigins(t *testing.T) {
	cfg, _, err := Load(writeConfig(t, `{}`), envOf(nil))
	require.NoError(t, err)
	assert.Empty(t, cfg.Control.AllowedOrigins, "only the server's own pages (and clients without Origin) by default")

	cfg, _, err = Load(writeConfig(t, `{"control": {"allowed_origins": ["https://web.telegram.org", "http://tv.local:8080", "*"]}}`), envOf(nil))
	require.NoError(t, err)
	assert.Equal(t, []string{"https://web.telegram.org", "http://tv.local:8080", "*"}, cfg.Control.AllowedOrigins)
	cfg, _, err = Load(writeConfig(t, `{}`), envOf(map[string]string{"MEDIATEKA_CONTROL__ALLOWED_ORIGINS": "https://a.org, https://b.org"}))
	require.NoError(t, err)
	assert.Equal(t, []string{"https://a.org", "https://b.org"}, cfg.Control.AllowedOrigins)

	_, _, err = Load(writeConfig(t, `{"control": {"allowed_origins": ["web.telegram.org", "https://a.org/page", "ftp://a.org"]}}`), envOf(nil))
	var inv *InvalidError
	require.ErrorAs(t, err, &inv)
	assert.Len(t, inv.Problems, 3)
	assert.Contains(t, inv.Error(), `control.allowed_origins: "web.telegram.org"`)
}

func TestMediaPlayback(t *testing.T) {
	cfg, _, err := Load(writeConfig(t, `{}`), envOf(nil))
	require.NoError(t, err)
	assert.Equal(t, 6*time.Hour, cfg.Media.PlayTokenTTL.D())
	assert.Equal(t, 4, cfg.Media.MaxRemuxes)

	cfg, _, err = Load(writeConfig(t, `{"media": {"play_token_ttl": "12h"}}`), envOf(map[string]string{"MEDIATEKA_MEDIA__MAX_REMUXES": "8"}))
	require.NoError(t, err)
	assert.Equal(t, 12*time.Hour, cfg.Media.PlayTokenTTL.D())
	assert.Equal(t, 8, cfg.Media.MaxRemuxes)

	_, _, err = Load(writeConfig(t, `{"media": {"play_token_ttl": "-1h", "max_remuxes": 0}}`), envOf(nil))
	var inv *InvalidError
	require.ErrorAs(t, err, &inv)
	assert.ElementsMatch(t, []string{"media.play_token_ttl must be a positive duration", "media.max_remuxes must be between 1 and 64"}, inv.Problems)
}

func TestRAGEmbedder(t *testing.T) {
	cfg, _, err := Load(writeConfig(t, `{}`), envOf(nil))
	require.NoError(t, err)
	assert.Equal(t, RAG{Embedder: "local", BatchSize: 64, Timeout: Duration(60 * time.Second)}, cfg.RAG)

	cfg, _, err = Load(writeConfig(t, `{"rag": {"embedder": "openai", "model": "nomic-embed-text", "timeout": "2m"}}`),
		envOf(map[string]string{"MEDIATEKA_RAG__BASE_URL": "http://127.0.0.1:11434/v1", "MEDIATEKA_RAG__BATCH_SIZE": "16"}))
	require.NoError(t, err)
	assert.Equal(t, RAG{Embedder: "openai", Model: "nomic-embed-text", BaseURL: "http://127.0.0.1:11434/v1",
		BatchSize: 16, Timeout: Duration(2 * time.Minute)}, cfg.RAG)

	_, _, err = Load(writeConfig(t, `{"rag": {"embedder": "bert"}}`), envOf(nil))
	assert.ErrorContains(t, err, `rag.embedder "bert" must be local, openai or gemini`)
	_, _, err = Load(writeConfig(t, `{"rag": {"embedder": "gemini", "batch_size": 200, "dimensions": -1,
		"base_url": "localhost:11434", "timeout": 0}}`), envOf(nil))
	var inv *InvalidError
	require.ErrorAs(t, err, &inv)
	for _, want := range []string{"rag.batch_size 200 must be between 1 and 100 for gemini", "rag.dimensions",
		`rag.base_url "localhost:11434"`, "rag.timeout"} {
		assert.Contains(t, inv.Error(), want)
	}
}

// TestTTSCacheDirIsNotTheDataDir: the cache evicts its oldest files, so
// it is refused in the folder that holds the database.
func TestTTSCacheDirIsNotTheDataDir(t *testing.T) {
	dir := t.TempDir()
	_, _, err := Load(writeConfig(t, `{"data_dir": "`+dir+`", "tts": {"cache_dir": "`+dir+`/"}}`), envOf(nil))
	assert.ErrorContains(t, err, "tts.cache_dir must be a folder of its own")
	cfg, _, err := Load(writeConfig(t, `{"data_dir": "`+dir+`"}`), envOf(nil))
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "tts"), cfg.TTS.CacheDir)
}
