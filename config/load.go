package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// InvalidError lists every problem found in the configuration, so a person
// fixes them all in one go instead of one restart per mistake.
type InvalidError struct {
	Problems []string
}

// Error implements error with one problem per line.
func (e *InvalidError) Error() string {
	return "invalid configuration:\n  - " + strings.Join(e.Problems, "\n  - ")
}

// LookupEnv reads one environment variable; os.LookupEnv in production, a map
// in tests.
type LookupEnv func(key string) (string, bool)

// Load reads path (an absent file means defaults), applies environment
// overrides and validates. Warnings are problems that do not stop start-up
// (unknown keys, the ignored "workers"); they are returned for the caller to
// log once a logger exists.
func Load(path string, env LookupEnv) (Config, []string, error) {
	cfg := Defaults()
	cfg.Dir = filepath.Dir(path)
	var problems, warnings []string

	raw, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// No file: defaults plus environment.
	case err != nil:
		problems = append(problems, fmt.Sprintf("cannot read %s: %v", path, err))
	default:
		p, w := decodeFile(raw, &cfg)
		problems = append(problems, p...)
		warnings = append(warnings, w...)
	}
	problems = append(problems, applyEnv(&cfg, env)...)
	cfg.fillDerived()
	if cfg.Workers != 0 {
		warnings = append(warnings, `"workers" is ignored: one process uses every core and keeps rooms consistent`)
	}
	problems = append(problems, cfg.validate()...)
	if len(problems) > 0 {
		return cfg, warnings, &InvalidError{Problems: problems}
	}
	return cfg, warnings, nil
}

// decodeFile decodes config.json into cfg, reporting syntax errors with line
// and column, type errors with the key path, and unknown keys as warnings.
func decodeFile(raw []byte, cfg *Config) (problems, warnings []string) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	var tree map[string]any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return []string{describeJSONError(raw, err)}, nil
	}
	if err := json.Unmarshal(raw, cfg); err != nil {
		problems = append(problems, describeJSONError(raw, err))
	}
	for _, k := range unknownKeys(tree, reflect.TypeOf(Config{}), "") {
		warnings = append(warnings, fmt.Sprintf("unknown key %q in config.json is ignored", k))
	}
	return problems, warnings
}

func describeJSONError(raw []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := lineCol(raw, syn.Offset)
		return fmt.Sprintf("config.json is not valid JSON at line %d, column %d: %v", line, col, syn)
	case errors.As(err, &typ):
		line, col := lineCol(raw, typ.Offset)
		return fmt.Sprintf("config.json key %q at line %d, column %d must be %s, not %s", typ.Field, line, col, typ.Type, typ.Value)
	default:
		return "config.json: " + err.Error()
	}
}

// lineCol converts encoding/json's offset (bytes read when the error was
// found, so just past the offending character) into a 1-based line and column
// of that character.
func lineCol(raw []byte, offset int64) (int, int) {
	pos := int(min(max(offset-1, 0), int64(len(raw))))
	before := raw[:pos]
	line := bytes.Count(before, []byte("\n")) + 1
	col := pos - bytes.LastIndexByte(before, '\n')
	return line, col
}

// unknownKeys lists keys of tree that name no field of t, as dotted paths.
func unknownKeys(tree map[string]any, t reflect.Type, prefix string) []string {
	fields := jsonFields(t)
	var out []string
	for k, v := range tree {
		f, ok := fields[k]
		if !ok {
			out = append(out, prefix+k)
			continue
		}
		if sub, isMap := v.(map[string]any); isMap && f.Type.Kind() == reflect.Struct {
			out = append(out, unknownKeys(sub, f.Type, prefix+k+".")...)
		}
	}
	sort.Strings(out)
	return out
}

func jsonFields(t reflect.Type) map[string]reflect.StructField {
	m := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			m[name] = f
		}
	}
	return m
}

// applyEnv applies MEDIATEKA_* overrides to every file key and reads the
// environment-only settings.
func applyEnv(cfg *Config, env LookupEnv) []string {
	problems := overrideStruct(reflect.ValueOf(cfg).Elem(), "MEDIATEKA_", env)
	if v, ok := env("JWT_SECRET"); ok {
		cfg.JWTSecret = v
	}
	if v, ok := env("USE_SSL"); ok {
		b, err := parseBool(v)
		if err != nil {
			problems = append(problems, "USE_SSL: "+err.Error())
		}
		cfg.UseSSL = b
	}
	if v, ok := env("DISABLED_PLUGINS"); ok {
		cfg.DisabledPlugins = splitList(v)
	}
	if v, ok := env("TELEGRAM_BOT_TOKEN"); ok {
		cfg.TelegramBotToken = v
	}
	if v, ok := env("ADMIN_EMAIL"); ok {
		cfg.AdminEmail = strings.TrimSpace(v)
	}
	if v, ok := env("ADMIN_PASSWORD"); ok {
		cfg.AdminPassword = v
	}
	return problems
}

func overrideStruct(v reflect.Value, prefix string, env LookupEnv) []string {
	var problems []string
	t := v.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		key := prefix + strings.ToUpper(name)
		fv := v.Field(i)
		if fv.Kind() == reflect.Struct {
			problems = append(problems, overrideStruct(fv, key+"__", env)...)
			continue
		}
		if s, ok := env(key); ok {
			if err := setFromString(fv, s); err != nil {
				problems = append(problems, key+": "+err.Error())
			}
		}
	}
	return problems
}

func setFromString(fv reflect.Value, s string) error {
	if d, ok := fv.Addr().Interface().(*Duration); ok {
		return d.parse(s)
	}
	switch fv.Kind() {
	case reflect.String:
		fv.SetString(s)
	case reflect.Int:
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("%q is not a whole number", s)
		}
		fv.SetInt(int64(n))
	case reflect.Bool:
		b, err := parseBool(s)
		if err != nil {
			return err
		}
		fv.SetBool(b)
	case reflect.Slice:
		fv.Set(reflect.ValueOf(splitList(s)))
	default:
		return fmt.Errorf("cannot be set from the environment")
	}
	return nil
}

func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		return true, nil
	case "", "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a yes/no value (use 1/true/yes/on or 0/false/no/off)", s)
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// fillDerived sets the paths that default to places inside the data folder.
func (c *Config) fillDerived() {
	if c.LogDir == "" {
		c.LogDir = filepath.Join(c.DataDir, "logs")
	}
	if c.PluginConfigDir == "" {
		c.PluginConfigDir = filepath.Join(c.DataDir, "plugins")
	}
	if c.TTS.CacheDir == "" {
		c.TTS.CacheDir = filepath.Join(c.DataDir, "tts")
	}
}
