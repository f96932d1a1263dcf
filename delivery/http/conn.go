package http

import (
	"bytes"
	"crypto/tls"
	"net"
	"sync/atomic"
	"time"
)

// writeChunk is the most one write deadline covers: a client must take
// at least this much every write timeout to stay connected.
const writeChunk = 16 << 10

// stallListener gives every connection a write deadline per write rather
// than per response. fasthttp's own WriteTimeout is one deadline for the
// whole response, which would cut off a film played for two hours; this
// one drops a client that stops reading (and frees the response it
// pinned) while a client that keeps reading streams for as long as it
// likes.
type stallListener struct {
	net.Listener
	timeout time.Duration
}

// Accept wraps the accepted connection. A TLS connection keeps its TLS
// methods visible, so fasthttp still knows the request came over HTTPS.
func (l stallListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	sc := &stallConn{Conn: c, timeout: l.timeout}
	if tc, ok := c.(*tls.Conn); ok {
		return &stallTLSConn{stallConn: sc, tls: tc}, nil
	}
	return sc, nil
}

// stallConn is a connection whose writes each get their own deadline. It
// also notes whether the request being read has ended its first line, so a
// request too large for the read buffer can be told apart: a URL that
// never ends (414) or headers that never end (431).
type stallConn struct {
	net.Conn
	timeout time.Duration
	// lineEnded is set when a line end is read and cleared when a
	// response is written, i.e. it tells whether the current request's
	// request line has ended.
	lineEnded atomic.Bool
}

// Read notes line ends of the incoming request.
func (c *stallConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && bytes.IndexByte(p[:n], '\n') >= 0 {
		c.lineEnded.Store(true)
	}
	return n, err
}

// Write sends p in chunks, each with a fresh write deadline.
func (c *stallConn) Write(p []byte) (int, error) {
	c.lineEnded.Store(false)
	written := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), writeChunk)]
		if c.timeout > 0 {
			if err := c.Conn.SetWriteDeadline(time.Now().Add(c.timeout)); err != nil {
				return written, err
			}
		}
		n, err := c.Conn.Write(chunk)
		written += n
		if err != nil {
			return written, err
		}
		p = p[n:]
	}
	return written, nil
}

// requestLineEnded reports whether the request being read on c has ended
// its first line; true when c is not a stallConn (no better guess).
func requestLineEnded(c net.Conn) bool {
	switch sc := c.(type) {
	case *stallConn:
		return sc.lineEnded.Load()
	case *stallTLSConn:
		return sc.lineEnded.Load()
	}
	return true
}

// stallTLSConn is a stallConn over TLS; fasthttp finds the handshake and
// connection state through these methods.
type stallTLSConn struct {
	*stallConn
	tls *tls.Conn
}

// Handshake runs the TLS handshake.
func (c *stallTLSConn) Handshake() error { return c.tls.Handshake() }

// ConnectionState reports the TLS state.
func (c *stallTLSConn) ConnectionState() tls.ConnectionState { return c.tls.ConnectionState() }
