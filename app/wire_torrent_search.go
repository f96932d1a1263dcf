package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"mediateka/config"
	"mediateka/plugins"
	"mediateka/repository/torznab"
	"mediateka/usecase/torrent"
)

// torrentSearchPlugin names the plugin whose config.json lists the Torznab
// indexers (API.md §11); GET /api/torrents/search reads the same file.
const torrentSearchPlugin = "torrent_search"

// searchConfig is what <plugin_config_dir>/torrent_search/config.json
// says: the indexers, or why they could not be read.
type searchConfig struct {
	indexers []torznab.Config
	problem  error
}

// indexerJSON is one indexer of the file: {"name", "url", "apikey",
// "timeout"}.
type indexerJSON struct {
	Name    string          `json:"name"`
	URL     string          `json:"url"`
	APIKey  string          `json:"apikey"`
	Timeout config.Duration `json:"timeout"`
}

// loadSearchConfig reads the indexers. It runs before the logger exists,
// so that their API keys can be given to the log redactor; a problem is
// logged later (searchConfig.report) and makes the search answer 503.
func loadSearchConfig(cfg config.Config) searchConfig {
	raw, err := plugins.ReadConfig(cfg.PluginConfigDir, torrentSearchPlugin)
	if err != nil {
		return searchConfig{problem: err}
	}
	var file struct {
		Indexers []indexerJSON   `json:"indexers"`
		Timeout  config.Duration `json:"timeout"`
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	if err := d.Decode(&file); err != nil {
		return searchConfig{problem: fmt.Errorf("config.json: %w", err)}
	}
	var sc searchConfig
	var problems []string
	names := map[string]bool{}
	for i, ix := range file.Indexers {
		c := torznab.Config{Name: strings.TrimSpace(ix.Name), URL: ix.URL, APIKey: ix.APIKey, Timeout: ix.Timeout.D()}
		if c.Timeout == 0 {
			c.Timeout = file.Timeout.D()
		}
		switch {
		case c.Name == "" || strings.ContainsAny(c.Name, ",\r\n\t"):
			problems = append(problems, fmt.Sprintf("indexers[%d].name must be a non-empty name without commas", i))
		case names[c.Name]:
			problems = append(problems, fmt.Sprintf("indexers[%d].name %q is used twice", i, c.Name))
		case c.Timeout < 0:
			problems = append(problems, fmt.Sprintf("indexers[%d].timeout must not be negative", i))
		}
		if _, err := torznab.New(c); err != nil {
			problems = append(problems, fmt.Sprintf("indexers[%d]: %s", i, err.Error()))
		}
		names[c.Name] = true
		sc.indexers = append(sc.indexers, c)
	}
	if len(problems) > 0 {
		return searchConfig{indexers: sc.indexers, problem: errors.New(strings.Join(problems, "; "))}
	}
	return sc
}

// apiKeys are the indexers' keys, for the log redactor.
func (sc searchConfig) apiKeys() []string {
	var keys []string
	for _, ix := range sc.indexers {
		if ix.APIKey != "" {
			keys = append(keys, ix.APIKey)
		}
	}
	return keys
}

// newTorrentSearch builds the searcher over the configured indexers;
// titles marks results the catalogue has.
func newTorrentSearch(sc searchConfig, titles torrent.TitleSearch, log *slog.Logger) *torrent.Searcher {
	opt := torrent.SearchOptions{Logger: log, Titles: titles}
	if sc.problem != nil {
		log.Error("torrent_search: the Torznab indexers are not usable until config.json is fixed", "problem", sc.problem.Error())
		opt.Problem = sc.problem
		return torrent.NewSearcher(nil, opt)
	}
	var ixs []torrent.Indexer
	for _, c := range sc.indexers {
		client, err := torznab.New(c)
		if err != nil { // checked by loadSearchConfig
			opt.Problem = err
			return torrent.NewSearcher(nil, opt)
		}
		ixs = append(ixs, client)
	}
	if len(ixs) == 0 {
		log.Info("torrent_search: no Torznab indexer configured; GET /api/torrents/search answers 503")
	}
	return torrent.NewSearcher(ixs, opt)
}
