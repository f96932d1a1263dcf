package http

import "testing"

func TestParseRange(t *testing.T) {
	tests := []struct {
		header      string
		size        int64
		start, end  int64
		partial, ok bool
	}{
		{"", 10, 0, 0, false, true},
		{"bytes=0-0", 10, 0, 0, true, true},
		{"bytes=3-", 10, 3, 9, true, true},
		{"bytes=-3", 10, 7, 9, true, true},
		{"bytes=-30", 10, 0, 9, true, true},
		{"bytes=8-30", 10, 8, 9, true, true},
		{" bytes=1-2 ", 10, 1, 2, true, true},
		{"bytes=0-1, 3-4", 10, 0, 0, false, true},
		{"bytes=10-", 10, 0, 0, false, false},
		{"bytes=-0", 10, 0, 0, false, false},
		{"bytes=0-", 0, 0, 0, false, false},
		{"bytes=-5", 0, 0, 0, false, false},
		{"bytes=4-3", 10, 0, 0, false, false},
		{"bytes=+1-2", 10, 0, 0, false, false},
		{"bytes= 1-2", 10, 1, 2, true, true},
		{"bytes=1", 10, 0, 0, false, false},
		{"bytes=", 10, 0, 0, false, false},
		{"bytes=0-1,", 10, 0, 0, false, false},
		{"bytes=9223372036854775808-", 10, 0, 0, false, false},
		{"items=0-1", 10, 0, 0, false, false},
	}
	for _, tt := range tests {
		r, partial, err := parseRange(tt.header, tt.size)
		if (err == nil) != tt.ok || partial != tt.partial || (partial && (r.start != tt.start || r.end != tt.end)) {
			t.Errorf("parseRange(%q, %d) = %+v, %v, %v", tt.header, tt.size, r, partial, err)
		}
	}
}
