package ws

import (
	"errors"
	"io"
	"net"
	"sync"
	"time"

	fws "github.com/fasthttp/websocket"
)

// socket is one upgraded connection as control.Conn: the hub's writer
// goroutine writes and pings through it, the handler's goroutine reads.
// Closing is bounded: a close frame, then a hard close of the TCP
// connection when the peer has not answered within the grace, so a peer
// that stopped reading cannot hold a goroutine.
type socket struct {
	ws  *fws.Conn
	raw net.Conn // the connection under the hijacked one, for a hard close
	opt Options

	mu      sync.Mutex
	closing bool
	aborted bool
	timer   *time.Timer
}

// hijacked is fasthttp's hijacked connection, whose own Close does
// nothing while the handler runs.
type hijacked interface{ UnsafeConn() net.Conn }

func newSocket(c *fws.Conn, opt Options) *socket {
	raw := c.NetConn()
	if h, ok := raw.(hijacked); ok {
		raw = h.UnsafeConn()
	}
	return &socket{ws: c, raw: raw, opt: opt}
}

// Write sends one text message within the write deadline.
func (s *socket) Write(msg []byte) error {
	if err := s.ws.SetWriteDeadline(time.Now().Add(s.opt.WriteWait)); err != nil {
		return err
	}
	return s.ws.WriteMessage(fws.TextMessage, msg)
}

// Ping sends a ping; the pong handler of read extends the read deadline.
func (s *socket) Ping() error {
	return s.ws.WriteControl(fws.PingMessage, nil, time.Now().Add(s.opt.WriteWait))
}

// Close sends a close frame and arms the hard close: the reader ends when
// the peer answers (the usual case) or when the grace runs out.
func (s *socket) Close(code int, reason string) {
	s.mu.Lock()
	if s.closing || s.aborted {
		s.mu.Unlock()
		return
	}
	s.closing = true
	s.timer = time.AfterFunc(s.opt.CloseGrace, s.abort)
	s.mu.Unlock()
	_ = s.ws.WriteControl(fws.CloseMessage, fws.FormatCloseMessage(code, reason), time.Now().Add(s.opt.CloseGrace))
}

// abort closes the TCP connection now, which fails any read or write in
// progress, and disarms the close timer.
func (s *socket) abort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
	}
	if !s.aborted {
		s.aborted = true
		_ = s.raw.Close()
	}
}

// linger reads and drops what the peer still sends, until it closes or
// the grace runs out. A socket closed with unread data in its buffer
// resets the connection, and the peer might never see the close frame
// that explains why (an oversized message's 1009).
func (s *socket) linger() {
	_ = s.raw.SetReadDeadline(time.Now().Add(s.opt.CloseGrace))
	_, _ = io.Copy(io.Discard, io.LimitReader(s.raw, lingerBytes))
}

// lingerBytes bounds what linger reads.
const lingerBytes = 1 << 20

// read feeds the peer's messages to receive until the connection ends:
// the peer closes or goes silent (no message and no pong within
// PongWait), a message is over ReadLimit (closed with 1009), or the hub
// closes the socket.
func (s *socket) read(receive func([]byte)) {
	s.ws.SetReadLimit(s.opt.ReadLimit)
	extend := func() error { return s.ws.SetReadDeadline(time.Now().Add(s.opt.PongWait)) }
	_ = extend()
	s.ws.SetPongHandler(func(string) error { return extend() })
	for {
		_, data, err := s.ws.ReadMessage()
		if errors.Is(err, fws.ErrReadLimit) {
			s.linger()
		}
		if err != nil {
			return
		}
		_ = extend()
		receive(data)
	}
}
