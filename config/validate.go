package config

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// validate returns every problem of the loaded configuration.
func (c Config) validate() []string {
	var p []string
	add := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }

	if strings.TrimSpace(c.Host) == "" {
		add("host must not be empty")
	}
	if c.Port < 1 || c.Port > 65535 {
		add("port %d is out of range 1..65535", c.Port)
	}
	if strings.TrimSpace(c.DataDir) == "" {
		add("data_dir must not be empty")
	}
	if c.IndexPath != "" {
		if err := readable(c.IndexPath); err != nil {
			add("index_path: %v", err)
		}
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		add("tls_cert and tls_key must be set together")
	}
	for _, f := range []struct{ key, path string }{{"tls_cert", c.TLSCert}, {"tls_key", c.TLSKey}} {
		if f.path != "" {
			if err := readable(f.path); err != nil {
				add("%s: %v", f.key, err)
			}
		}
	}
	p = append(p, c.validateSections()...)
	return p
}

// validateSections checks every section's values; each check adds its
// problems to one list, so a person sees all of them at once.
func (c Config) validateSections() []string {
	var p []string
	add := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	c.validateDurations(add)
	c.validateLimits(add)
	c.validateChoices(add)
	c.validateURLs(add)
	c.validateRAG(add)
	return p
}

// validateDurations requires every timeout and lifetime to be positive.
func (c Config) validateDurations(add func(string, ...any)) {
	positive := map[string]Duration{
		"http.shutdown_timeout": c.HTTP.ShutdownTimeout, "http.read_timeout": c.HTTP.ReadTimeout,
		"auth.token_ttl": c.Auth.TokenTTL, "auth.oauth_state_ttl": c.Auth.OAuthStateTTL,
		"auth.telegram_init_data_ttl": c.Auth.TelegramInitDataTTL, "ai.timeout": c.AI.Timeout,
		"ai.key_cooldown": c.AI.KeyCooldown, "torrent_client.timeout": c.TorrentClient.Timeout,
		"chat.timeout":       c.Chat.Timeout,
		"http.write_timeout": c.HTTP.WriteTimeout, "http.idle_timeout": c.HTTP.IdleTimeout,
		"search_history.max_age": c.SearchHistory.MaxAge, "control.token_recheck": c.Control.TokenRecheck,
		"media.play_token_ttl":         c.Media.PlayTokenTTL,
		"torrent_client.fetch_timeout": c.TorrentClient.FetchTimeout,
		"torrent_client.poll_interval": c.TorrentClient.PollInterval,
	}
	keys := make([]string, 0, len(positive))
	for k := range positive {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if positive[k] <= 0 {
			add("%s must be a positive duration", k)
		}
	}
}

// validateLimits checks the counts and sizes.
func (c Config) validateLimits(add func(string, ...any)) {
	if c.SearchHistory.MaxRows < 1 {
		add("search_history.max_rows must be at least 1")
	}
	if c.HTTP.BodyLimitBytes < 1024 {
		add("http.body_limit_bytes must be at least 1024")
	}
	if c.Auth.MaxFailedPerMinute < 1 {
		add("auth.max_failed_logins_per_minute must be at least 1")
	}
	if c.Auth.MaxConcurrentLogins < 1 || c.Auth.MaxConcurrentLogins > 64 {
		add("auth.max_concurrent_logins must be between 1 and 64")
	}
	if c.Auth.OAuthMaxPending < 1 {
		add("auth.oauth_max_pending must be at least 1")
	}
	if c.Log.MaxSizeMB < 1 || c.Log.MaxBackups < 0 {
		add("log.max_size_mb must be at least 1 and log.max_backups not negative")
	}
	if c.Chat.MaxMessageChars < 1 || c.Chat.MaxHistory < 0 {
		add("chat.max_message_chars must be at least 1 and chat.max_history not negative")
	}
	if c.Media.MaxRemuxes < 1 || c.Media.MaxRemuxes > 64 {
		add("media.max_remuxes must be between 1 and 64")
	}
	if c.TorrentClient.RelocateInline < 0 {
		add("torrent_client.relocate_inline must not be negative")
	}
}

// validateChoices checks the values that name one of a fixed set.
func (c Config) validateChoices(add func(string, ...any)) {
	if !slices.Contains([]string{"debug", "info", "warn", "error"}, strings.ToLower(c.Log.Level)) {
		add("log.level %q must be debug, info, warn or error", c.Log.Level)
	}
	if !slices.Contains([]string{"", "offline", "gemini", "openai"}, c.AI.Provider) {
		add("ai.provider %q must be offline, gemini or openai", c.AI.Provider)
	}
	if !slices.Contains([]string{"espeak", "google", "openai"}, c.TTS.Engine) {
		add("tts.engine %q must be espeak, google or openai", c.TTS.Engine)
	}
	if !slices.Contains([]string{"", "mp3", "wav", "ogg"}, c.TTS.Format) {
		add("tts.format %q must be mp3, wav or ogg", c.TTS.Format)
	}
	if c.TTS.CacheDir != "" && filepath.Clean(c.TTS.CacheDir) == filepath.Clean(c.DataDir) {
		add("tts.cache_dir must be a folder of its own, not data_dir itself (its oldest files are removed past tts.cache_max_mb)")
	}
	if c.TTS.CacheMaxMB < 1 {
		add("tts.cache_max_mb must be at least 1")
	}
	if c.TTS.MaxProcesses < 1 || c.TTS.MaxProcesses > 64 {
		add("tts.max_processes must be 1 to 64")
	}
	if p := c.TTS.Espeak.Pitch; p < 0 || p > 99 {
		add("tts.espeak.pitch must be 0 to 99")
	}
	if r := c.TTS.Espeak.Rate; r != 0 && (r < 80 || r > 500) {
		add("tts.espeak.rate must be 80 to 500 words a minute (0: espeak-ng's own)")
	}
}

// validateURLs checks the addresses of outside services and proxies.
func (c Config) validateURLs(add func(string, ...any)) {
	for _, tp := range c.TrustedProxies {
		if _, err := parsePrefix(tp); err != nil {
			add("trusted_proxies: %q is not an address or a CIDR range like 10.0.0.0/8", tp)
		}
	}
	for _, f := range [][2]string{{"ai.base_url", c.AI.BaseURL}, {"torrent_client.url", c.TorrentClient.URL},
		{"google_oauth.auth_url", c.GoogleOAuth.AuthURL}, {"google_oauth.token_url", c.GoogleOAuth.TokenURL},
		{"google_oauth.userinfo_url", c.GoogleOAuth.UserinfoURL},
		{"tts.google.base_url", c.TTS.Google.BaseURL}, {"tts.openai.base_url", c.TTS.OpenAI.BaseURL}} {
		if f[1] != "" && !isHTTPURL(f[1]) {
			add("%s %q must be an http(s) URL", f[0], f[1])
		}
	}
	for _, o := range c.Control.AllowedOrigins {
		if o != "*" && !isOrigin(o) {
			add("control.allowed_origins: %q must be an origin like https://example.org (scheme and host, no path) or *", o)
		}
	}
	if r := c.GoogleOAuth.RedirectURI; r != "" && (!isHTTPURL(r) || !strings.HasSuffix(mustPath(r), "/auth/google/callback")) {
		add("google_oauth.redirect_uri %q must be an http(s) URL whose path ends with /auth/google/callback", r)
	}
}

func readable(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("cannot read %s", path)
	}
	return f.Close()
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// isOrigin reports whether s is an http(s) origin: scheme and host (with
// an optional port), nothing after.
func isOrigin(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" &&
		(u.Path == "" || u.Path == "/") && u.RawQuery == "" && u.Fragment == "" && u.User == nil
}

func mustPath(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return u.Path
}
