// Package torznabtest runs a fake Torznab indexer for tests: an httptest
// server at Jackett's path that answers t=caps, t=search, t=tvsearch and
// t=movie with the XML a real indexer sends (RSS 2.0 with torznab:attr
// elements), checks the API key as Jackett does (an error element with
// status 200), and can be made slow or broken.
package torznabtest

import (
	"encoding/xml"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Path is where the fake answers, as Jackett's aggregate endpoint does;
// Server.URL already includes it minus the final "/api".
const Path = "/api/v2.0/indexers/all/results/torznab/api"

// Item is one release the fake knows.
type Item struct {
	Title     string
	Size      int64
	Seeders   int
	Peers     int
	Magnet    string // sent as torznab:attr magneturl
	Link      string // the .torrent link (enclosure); empty: the magnet is the enclosure
	Cats      []int
	Published time.Time
	Freeleech bool
}

// Options shape the fake.
type Options struct {
	APIKey string
	Items  []Item
	// NoTV and NoMovie leave tv-search and movie-search out of the caps.
	NoTV, NoMovie bool
	// Delay holds every answer this long (or until the client gives up).
	Delay time.Duration
	// ErrorCode, when set, makes every search answer an error element
	// with ErrorDescription.
	ErrorCode        int
	ErrorDescription string
}

// Server is a running fake indexer.
type Server struct {
	*httptest.Server
	// URL is the Torznab endpoint to configure (without the final /api,
	// which the client adds, as for Jackett's "Copy Torznab Feed").
	URL string
	opt Options

	mu       sync.Mutex
	requests []url.Values
}

// Start starts a fake indexer that stops when the test ends.
func Start(t testing.TB, opt Options) *Server {
	t.Helper()
	s := &Server{opt: opt}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Server.Close)
	s.URL = s.Server.URL + strings.TrimSuffix(Path, "/api")
	return s
}

// Requests returns the queries received so far, the API key removed.
func (s *Server) Requests() []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	key := q.Get("apikey")
	q.Del("apikey")
	s.mu.Lock()
	s.requests = append(s.requests, q)
	s.mu.Unlock()
	if s.opt.Delay > 0 {
		select {
		case <-time.After(s.opt.Delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/rss+xml; charset=utf-8")
	switch {
	case r.URL.Path != Path:
		http.NotFound(w, r)
	case s.opt.APIKey != "" && key != s.opt.APIKey:
		writeError(w, 100, "Invalid API Key")
	case q.Get("t") == "caps":
		_, _ = w.Write([]byte(s.caps()))
	case s.opt.ErrorCode != 0:
		writeError(w, s.opt.ErrorCode, s.opt.ErrorDescription)
	case q.Get("t") == "search" || q.Get("t") == "tvsearch" && !s.opt.NoTV || q.Get("t") == "movie" && !s.opt.NoMovie:
		_, _ = w.Write([]byte(s.feed(q)))
	default:
		writeError(w, 203, "Function Not Available")
	}
}

func writeError(w http.ResponseWriter, code int, desc string) {
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<error code="%d" description="%s" />`, code, html.EscapeString(desc))
}

func (s *Server) caps() string {
	yes := func(off bool) string {
		if off {
			return "no"
		}
		return "yes"
	}
	return `<?xml version="1.0" encoding="UTF-8"?>
<caps>
  <server title="Jackett" />
  <limits default="100" max="100" />
  <searching>
    <search available="yes" supportedParams="q" />
    <tv-search available="` + yes(s.opt.NoTV) + `" supportedParams="q,season,ep" />
    <movie-search available="` + yes(s.opt.NoMovie) + `" supportedParams="q" />
    <music-search available="no" supportedParams="q" />
    <audio-search available="no" supportedParams="q" />
    <book-search available="no" supportedParams="q" />
  </searching>
  <categories>
    <category id="2000" name="Movies">
      <subcat id="2040" name="Movies/HD" />
      <subcat id="2045" name="Movies/UHD" />
    </category>
    <category id="5000" name="TV">
      <subcat id="5040" name="TV/HD" />
    </category>
  </categories>
</caps>`
}

// feed renders the items whose title has every word of q and, with cat,
// one of its categories (a subcategory matches its parent).
func (s *Server) feed(q url.Values) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:torznab="http://torznab.com/schemas/2015/feed">
  <channel>
    <atom:link href="http://127.0.0.1/" rel="self" type="application/rss+xml" />
    <title>AggregateSearch</title>
    <description>This feed includes all configured trackers</description>
    <language>en-US</language>
    <category>search</category>
`)
	for _, it := range s.opt.Items {
		if matches(it, q) {
			writeItem(&b, it)
		}
	}
	b.WriteString("  </channel>\n</rss>\n")
	return b.String()
}

func matches(it Item, q url.Values) bool {
	title := strings.ToLower(it.Title)
	for _, w := range strings.Fields(strings.ToLower(q.Get("q"))) {
		if !strings.Contains(title, w) {
			return false
		}
	}
	cats := strings.Split(q.Get("cat"), ",")
	if q.Get("cat") == "" {
		return true
	}
	for _, c := range it.Cats {
		if slices.Contains(cats, fmt.Sprint(c)) || slices.Contains(cats, fmt.Sprint(c/1000*1000)) {
			return true
		}
	}
	return false
}

func writeItem(b *strings.Builder, it Item) {
	esc := func(s string) string {
		var out strings.Builder
		_ = xml.EscapeText(&out, []byte(s))
		return out.String()
	}
	link := it.Link
	if link == "" {
		link = it.Magnet
	}
	fmt.Fprintf(b, `    <item>
      <title>%s</title>
      <guid>%s</guid>
      <jackettindexer id="rutracker">RuTracker</jackettindexer>
      <type>public</type>
      <comments>https://tracker.example/t/1</comments>
      <pubDate>%s</pubDate>
      <size>%d</size>
      <link>%s</link>
      <enclosure url="%s" length="%d" type="application/x-bittorrent" />
`, esc(it.Title), esc(link), it.Published.UTC().Format(time.RFC1123Z), it.Size, esc(link), esc(link), it.Size)
	for _, c := range it.Cats {
		fmt.Fprintf(b, "      <category>%d</category>\n", c)
		fmt.Fprintf(b, "      <torznab:attr name=\"category\" value=\"%d\" />\n", c)
	}
	dl := "1"
	if it.Freeleech {
		dl = "0"
	}
	fmt.Fprintf(b, `      <torznab:attr name="seeders" value="%d" />
      <torznab:attr name="peers" value="%d" />
      <torznab:attr name="downloadvolumefactor" value="%s" />
      <torznab:attr name="uploadvolumefactor" value="1" />
`, it.Seeders, it.Peers, dl)
	if it.Magnet != "" {
		fmt.Fprintf(b, "      <torznab:attr name=\"magneturl\" value=\"%s\" />\n", esc(it.Magnet))
	}
	b.WriteString("    </item>\n")
}
