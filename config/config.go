// Package config loads mediateka's settings from config.json and the
// environment into one typed tree, fills defaults and validates everything at
// once, so a bad setting stops start-up with a list a person can act on.
package config

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"path/filepath"
	"strings"
	"time"
)

// Config is the whole configuration tree. JSON names are the config.json keys;
// environment overrides are MEDIATEKA_ + the key path in upper case with "__"
// between levels (MEDIATEKA_CHAT__MAX_MESSAGE_CHARS). Fields tagged `json:"-"`
// come from the environment only: they are secrets or switches that do not
// belong in a file.
type Config struct {
	Host            string      `json:"host"`
	Port            int         `json:"port"`
	IndexPath       string      `json:"index_path"`
	TgMiniApp       TgMiniApp   `json:"tg_mini_app"`
	GoogleOAuth     GoogleOAuth `json:"google_oauth"`
	Workers         int         `json:"workers"`
	DataDir         string      `json:"data_dir"`
	LogDir          string      `json:"log_dir"`
	PluginConfigDir string      `json:"plugin_config_dir"`
	TLSCert         string      `json:"tls_cert"`
	TLSKey          string      `json:"tls_key"`
	HTTP            HTTP        `json:"http"`
	Log             Log         `json:"log"`
	Auth            Auth        `json:"auth"`
	AI              AI          `json:"ai"`
	RAG             RAG         `json:"rag"`
	TorrentClient   Torrent     `json:"torrent_client"`
	TTS             TTS         `json:"tts"`
	Chat            Chat        `json:"chat"`
	Control         Control     `json:"control"`
	Media           Media       `json:"media"`
	// TrustedProxies lists the reverse proxies (CIDR, or single addresses)
	// whose X-Forwarded-For header names the client. Empty: the TCP peer is
	// the client, and the header is ignored.
	TrustedProxies []string `json:"trusted_proxies"`

	// SearchHistory bounds the search_history table.
	SearchHistory SearchHistory `json:"search_history"`

	// Environment-only settings.
	JWTSecret        string   `json:"-"`
	UseSSL           bool     `json:"-"`
	DisabledPlugins  []string `json:"-"`
	TelegramBotToken string   `json:"-"`
	AdminEmail       string   `json:"-"`
	AdminPassword    string   `json:"-"`

	// Dir is the folder of config.json; search_dirs.json is read from it.
	Dir string `json:"-"`
}

// TgMiniApp describes the Telegram Mini App the bot's /start button opens.
type TgMiniApp struct {
	URL         string `json:"url"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// GoogleOAuth configures "Sign in with Google". The endpoint URLs default to
// Google's and exist so tests (and self-hosted OIDC look-alikes) can point
// elsewhere.
type GoogleOAuth struct {
	ClientID      string   `json:"client_id"`
	ClientSecret  string   `json:"client_secret"`
	RedirectURI   string   `json:"redirect_uri"`
	AllowedEmails []string `json:"allowed_emails"`
	AuthURL       string   `json:"auth_url"`
	TokenURL      string   `json:"token_url"`
	UserinfoURL   string   `json:"userinfo_url"`
}

// Enabled reports whether Google sign-in is configured.
func (g GoogleOAuth) Enabled() bool { return g.ClientID != "" && g.ClientSecret != "" }

// HTTP holds server limits.
type HTTP struct {
	BodyLimitBytes  int      `json:"body_limit_bytes"`
	ShutdownTimeout Duration `json:"shutdown_timeout"`
	ReadTimeout     Duration `json:"read_timeout"`

	// WriteTimeout is how long one write to a client may stall: a client
	// that stops reading is dropped after it, while a stream the client
	// keeps reading (a film, the event stream) runs as long as it likes.
	WriteTimeout Duration `json:"write_timeout"`
	// IdleTimeout is how long a kept-alive connection waits for its next
	// request.
	IdleTimeout Duration `json:"idle_timeout"`
}

// SearchHistory bounds the search_history table: the oldest rows go first
// once it holds more than MaxRows or they are older than MaxAge.
type SearchHistory struct {
	MaxRows int      `json:"max_rows"`
	MaxAge  Duration `json:"max_age"`
}

// Log configures the JSON log file and its rotation.
type Log struct {
	Level      string `json:"level"`
	MaxSizeMB  int    `json:"max_size_mb"`
	MaxBackups int    `json:"max_backups"`
	// Compress gzips rotated files (mediateka-<time>.log.gz); the logs API
	// reads them decompressed.
	Compress bool `json:"compress"`
}

// Auth configures tokens and login throttling.
type Auth struct {
	TokenTTL           Duration `json:"token_ttl"`
	MaxFailedPerMinute int      `json:"max_failed_logins_per_minute"`
	// MaxConcurrentLogins bounds the password checks running at once (each
	// argon2 check holds ~19 MiB); more attempts get 429 at once.
	MaxConcurrentLogins int      `json:"max_concurrent_logins"`
	OAuthStateTTL       Duration `json:"oauth_state_ttl"`
	// OAuthMaxPending caps the Google sign-ins in progress held in memory.
	OAuthMaxPending     int      `json:"oauth_max_pending"`
	TelegramInitDataTTL Duration `json:"telegram_init_data_ttl"`
}

// AI selects the model behind the chat. Keys come from the key store, never
// from this file.
type AI struct {
	Provider    string   `json:"provider"`
	Model       string   `json:"model"`
	BaseURL     string   `json:"base_url"`
	Timeout     Duration `json:"timeout"`
	KeyCooldown Duration `json:"key_cooldown"`
	// ClassifyAfterScan runs AI classification of new and incomplete
	// entries after every completed scan, when a model is configured. Off
	// by default: each entry costs a model call against the provider's quota.
	ClassifyAfterScan bool `json:"classify_after_scan"`
}

// Torrent points at the qBittorrent WebUI.
type Torrent struct {
	URL      string `json:"url"`
	Username string `json:"username"`
	Password string `json:"password"`
	// Timeout bounds each call to the client, the login included: an
	// unreachable client is a 503 within it.
	Timeout Duration `json:"timeout"`
	// FetchTimeout bounds downloading a .torrent link (an indexer such as
	// Jackett may fetch it from its tracker first).
	FetchTimeout Duration `json:"fetch_timeout"`
	// PollInterval is how often the poller asks the client for finished
	// downloads (the torrent_completed event).
	PollInterval Duration `json:"poll_interval"`
	// ScanCompleted scans a finished download that lies inside a library
	// folder, so the new film appears in the catalogue by itself.
	ScanCompleted bool `json:"scan_completed"`
	// RelocateInline is how many torrents with missing files a relocation
	// handles within the request; more run as a background job (202).
	RelocateInline int `json:"relocate_inline"`
}

// TTS configures speech synthesis (docs/API.md §10).
type TTS struct {
	// Engine is the default engine: espeak, google or openai.
	Engine string `json:"engine"`
	// Format is the default format; "" is mp3 when the engine can make it
	// (espeak needs ffmpeg for it), else wav.
	Format   string `json:"format"`
	CacheDir string `json:"cache_dir"`
	// CacheMaxMB caps the audio cache; the least recently used files go.
	CacheMaxMB int `json:"cache_max_mb"`
	// MaxProcesses bounds the espeak-ng syntheses running at once.
	MaxProcesses int       `json:"max_processes"`
	Espeak       TTSEngine `json:"espeak"`
	Google       TTSEngine `json:"google"`
	OpenAI       TTSEngine `json:"openai"`
}

// TTSEngine configures one speech engine. BaseURL and Model are for the
// remote engines, Rate and Pitch for espeak.
type TTSEngine struct {
	// Voices is the voice per language ("ru", "en") for a text that
	// names no voice: the language is read from the text.
	Voices  map[string]string `json:"voices"`
	BaseURL string            `json:"base_url,omitempty"`
	Model   string            `json:"model,omitempty"`
	// Rate is espeak-ng's speed in words a minute (its own 175 when 0).
	Rate int `json:"rate,omitempty"`
	// Pitch is espeak-ng's pitch 0–99 (its own 50 when 0).
	Pitch int `json:"pitch,omitempty"`
}

// Chat bounds chat requests.
type Chat struct {
	MaxMessageChars int      `json:"max_message_chars"`
	MaxHistory      int      `json:"max_history"`
	Timeout         Duration `json:"timeout"`
}

// Control configures player/remote rooms.
type Control struct {
	// AllowAnonymousRooms opens rooms that are not e-mails (shared codes)
	// to whoever knows them; off, they need a signed-in account.
	AllowAnonymousRooms bool `json:"allow_anonymous_rooms"`
	// AllowedOrigins are browser origins (scheme://host[:port], or "*")
	// whose pages may open rooms besides the server's own pages. Clients
	// that send no Origin (apps, scripts) are always admitted.
	AllowedOrigins []string `json:"allowed_origins"`
	// TokenRecheck is how often the token a room connection joined with
	// is checked again: a password change, a deletion or a lost admin role
	// closes the connection within this time.
	TokenRecheck Duration `json:"token_recheck"`
}

// Media configures playback (docs/API.md §3).
type Media struct {
	// PlayTokenTTL is how long the play tokens in /play's URLs last.
	PlayTokenTTL Duration `json:"play_token_ttl"`
	// MaxRemuxes is how many ffmpeg remuxes run at once; more are
	// refused with 503 remux_busy after a short wait.
	MaxRemuxes int `json:"max_remuxes"`
}

// Defaults returns the configuration used when config.json is absent. The
// server runs with it as it is: SQLite in ./data, the offline assistant and
// espeak-ng speech.
func Defaults() Config {
	return Config{
		Host:    "0.0.0.0",
		Port:    3000,
		DataDir: "./data",
		HTTP: HTTP{
			BodyLimitBytes:  1 << 20,
			ShutdownTimeout: Duration(10 * time.Second),
			ReadTimeout:     Duration(30 * time.Second),
			WriteTimeout:    Duration(30 * time.Second),
			IdleTimeout:     Duration(120 * time.Second),
		},
		SearchHistory: SearchHistory{MaxRows: 100_000, MaxAge: Duration(90 * 24 * time.Hour)},
		Log:           Log{Level: "info", MaxSizeMB: 20, MaxBackups: 5},
		Auth: Auth{TokenTTL: Duration(24 * time.Hour), MaxFailedPerMinute: 10, MaxConcurrentLogins: 4,
			OAuthStateTTL: Duration(10 * time.Minute), OAuthMaxPending: 10000, TelegramInitDataTTL: Duration(24 * time.Hour)},
		AI:  AI{Provider: "offline", Timeout: Duration(60 * time.Second), KeyCooldown: Duration(24 * time.Hour)},
		RAG: RAG{Embedder: "local", BatchSize: 64, Timeout: Duration(60 * time.Second)},
		TorrentClient: Torrent{
			URL: "http://127.0.0.1:8080", Username: "admin", Timeout: Duration(3 * time.Second),
			FetchTimeout: Duration(20 * time.Second), PollInterval: Duration(10 * time.Second),
			ScanCompleted: true, RelocateInline: 5,
		},
		TTS: TTS{Engine: "espeak", CacheMaxMB: 256, MaxProcesses: 2,
			Espeak: TTSEngine{Voices: map[string]string{"ru": "ru", "en": "en-us"}},
			Google: TTSEngine{BaseURL: "https://texttospeech.googleapis.com", Voices: map[string]string{"ru": "ru-RU-Wavenet-D", "en": "en-US-Wavenet-D"}},
			OpenAI: TTSEngine{BaseURL: "https://api.openai.com/v1", Model: "tts-1", Voices: map[string]string{"ru": "alloy", "en": "alloy"}}},
		Chat:    Chat{MaxMessageChars: 4000, MaxHistory: 50, Timeout: Duration(90 * time.Second)},
		Control: Control{AllowAnonymousRooms: true, TokenRecheck: Duration(30 * time.Second)},
		Media:   Media{PlayTokenTTL: Duration(6 * time.Hour), MaxRemuxes: 4},
		GoogleOAuth: GoogleOAuth{
			AuthURL:     "https://accounts.google.com/o/oauth2/auth",
			TokenURL:    "https://oauth2.googleapis.com/token",
			UserinfoURL: "https://openidconnect.googleapis.com/v1/userinfo",
		},
	}
}

// Addr is the host:port the server listens on.
func (c Config) Addr() string { return fmt.Sprintf("%s:%d", c.Host, c.Port) }

// DBPath is the SQLite database file.
func (c Config) DBPath() string { return filepath.Join(c.DataDir, "mediateka.db") }

// SearchDirsPath is search_dirs.json beside config.json.
func (c Config) SearchDirsPath() string { return filepath.Join(c.Dir, "search_dirs.json") }

// TrustedProxyPrefixes returns trusted_proxies as prefixes; a single address
// is a prefix of its full length. Entries that do not parse are skipped
// (validation has already refused them).
func (c Config) TrustedProxyPrefixes() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range c.TrustedProxies {
		if p, err := parsePrefix(s); err == nil {
			out = append(out, p)
		}
	}
	return out
}

func parsePrefix(s string) (netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(s); err == nil {
		return netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()), nil
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	return p.Masked(), nil
}

// PluginDisabled reports whether DISABLED_PLUGINS names the plugin
// (case-insensitively).
func (c Config) PluginDisabled(name string) bool {
	for _, d := range c.DisabledPlugins {
		if strings.EqualFold(strings.TrimSpace(d), name) {
			return true
		}
	}
	return false
}

// Duration is a time.Duration written as "90s" or "24h" in JSON and the
// environment; a bare number means seconds.
type Duration time.Duration

// D returns the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// MarshalJSON writes the duration as a string such as "24h0m0s".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON accepts "1h30m" strings and plain seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var n float64
	if err := json.Unmarshal(b, &n); err == nil {
		*d = Duration(n * float64(time.Second))
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration must be a string like \"30s\" or a number of seconds")
	}
	return d.parse(s)
}

func (d *Duration) parse(s string) error {
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("%q is not a duration like \"30s\" or \"24h\"", s)
	}
	*d = Duration(v)
	return nil
}
