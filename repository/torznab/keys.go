package torznab

import (
	"net/url"
	"strings"
)

// isKeyParam reports a query parameter indexers put their API key in:
// Prowlarr's apikey, Jackett's jackett_apikey (any case).
func isKeyParam(name string) bool {
	if n, err := url.QueryUnescape(name); err == nil {
		name = n
	}
	return strings.EqualFold(name, "apikey") || strings.EqualFold(name, "jackett_apikey")
}

// origin is a URL's scheme and host:port, lower-cased, the default port
// written out, so http://Host/ and http://host:80/ are one origin.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// editKeys rewrites the values of link's key parameters with edit (given
// the unescaped value, it returns the new, unescaped one), leaving every
// other byte of the link as the indexer wrote it.
func editKeys(link string, edit func(value string) string) string {
	head, query, ok := strings.Cut(link, "?")
	if !ok {
		return link
	}
	query, frag, hasFrag := strings.Cut(query, "#")
	parts := strings.Split(query, "&")
	for i, p := range parts {
		name, value, _ := strings.Cut(p, "=")
		if !isKeyParam(name) {
			continue
		}
		if v, err := url.QueryUnescape(value); err == nil {
			value = v
		}
		parts[i] = name + "=" + url.QueryEscape(edit(value))
	}
	out := head + "?" + strings.Join(parts, "&")
	if hasFrag {
		out += "#" + frag
	}
	return out
}

// hideKey blanks key wherever link carries it in a key parameter
// (…?jackett_apikey=&path=…), so a search result can be shown to anyone;
// Keys.Restore puts it back when the server fetches the link. A link that
// still holds the key elsewhere comes back empty: it is not shown at all.
func hideKey(link, key string) string {
	if key == "" || link == "" {
		return link
	}
	link = editKeys(link, func(v string) string {
		if v == key {
			return ""
		}
		return v
	})
	if strings.Contains(link, key) || strings.Contains(link, url.QueryEscape(key)) {
		return ""
	}
	return link
}

// Keys knows the configured indexers' origins and API keys, to put a key
// hidden from a search result back into its link when the server fetches
// it (POST /api/torrents/download). It is safe for concurrent use.
type Keys struct {
	// keys maps an indexer's origin to its key ("" when it has none).
	keys map[string]string
}

// NewKeys builds the keys of the configured indexers; the first of
// several indexers on one origin gives its key.
func NewKeys(cfgs []Config) *Keys {
	k := &Keys{keys: map[string]string{}}
	for _, c := range cfgs {
		u, err := url.Parse(strings.TrimSpace(c.URL))
		if err != nil || u.Host == "" {
			continue
		}
		if have, ok := k.keys[origin(u)]; !ok || have == "" {
			k.keys[origin(u)] = c.APIKey
		}
	}
	return k
}

// Restore returns link with the key of the indexer it points at filled
// into its blank key parameters, and whether it points at a configured
// indexer at all (scheme, host and port). A link elsewhere comes back as
// it is: no key is ever sent to another host.
func (k *Keys) Restore(link string) (string, bool) {
	u, err := url.Parse(link)
	if err != nil || u.Host == "" {
		return link, false
	}
	key, ok := k.keys[origin(u)]
	if !ok {
		return link, false
	}
	if key == "" {
		return link, true
	}
	return editKeys(link, func(v string) string {
		if v == "" {
			return key
		}
		return v
	}), true
}
