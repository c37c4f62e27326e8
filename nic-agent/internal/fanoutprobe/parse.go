package fanoutprobe

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// ErrNotHTTP is returned for bytes that do not start an HTTP/1.x response.
var ErrNotHTTP = errors.New("not an HTTP/1.x response")

var publishedMarker = []byte(":published-us=")

// EventScanner finds the service's profile events in a stream's bytes, whatever the read
// boundaries: each event carries a ":published-us=<epoch µs>" comment line in the same HTTP chunk
// (the chunk framing itself is not parsed; heartbeats are bare ":" comments and never match).
type EventScanner struct {
	pending []byte
}

// Feed scans data and returns the published-us stamp of every event whose stamp is now complete;
// a stamp cut by the end of data is kept for the next call.
func (s *EventScanner) Feed(data []byte) []int64 {
	buf := data
	if len(s.pending) > 0 {
		buf = append(s.pending, data...)
	}
	var out []int64
	keep := max(0, len(buf)-(len(publishedMarker)-1))
	for i := 0; ; {
		j := bytes.Index(buf[i:], publishedMarker)
		if j < 0 {
			break
		}
		k := i + j + len(publishedMarker)
		var us int64
		for k < len(buf) && buf[k] >= '0' && buf[k] <= '9' {
			us = us*10 + int64(buf[k]-'0')
			k++
		}
		if k == len(buf) { // the number may go on in the next read
			keep = i + j
			break
		}
		out = append(out, us)
		keep = max(keep, k)
		i = k
	}
	s.pending = append(s.pending[:0], buf[keep:]...)
	return out
}

// Response is what the probe needs of a long-poll's answer.
type Response struct {
	Status      int
	PublishedUs int64 // Weft-Published-Us, 0 when absent
	Version     int64 // Weft-Version, -1 when absent
}

// ResponseParser collects one HTTP/1.1 response over any number of reads: a Content-Length or a
// chunked body, or none (204, 304).
type ResponseParser struct {
	buf []byte
}

// Reset forgets a previous response (the connection carries the next request).
func (p *ResponseParser) Reset() { p.buf = p.buf[:0] }

// Feed adds data; done is true once the response is complete.
func (p *ResponseParser) Feed(data []byte) (r Response, done bool, err error) {
	p.buf = append(p.buf, data...)
	headEnd := bytes.Index(p.buf, []byte("\r\n\r\n"))
	if headEnd < 0 {
		return r, false, nil
	}
	head := p.buf[:headEnd]
	if !bytes.HasPrefix(head, []byte("HTTP/1.")) || len(head) < 12 {
		line, _, _ := bytes.Cut(head, []byte("\r\n"))
		return r, false, fmt.Errorf("%w: %q", ErrNotHTTP, line)
	}
	status, err := strconv.Atoi(string(head[9:12]))
	if err != nil {
		return r, false, fmt.Errorf("%w: status %q", ErrNotHTTP, head[9:12])
	}
	r = Response{Status: status, Version: -1}
	length, chunked := -1, false
	for _, line := range bytes.Split(head, []byte("\r\n"))[1:] {
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		value = bytes.TrimSpace(value)
		switch string(bytes.ToLower(name)) {
		case "content-length":
			if length, err = strconv.Atoi(string(value)); err != nil {
				return r, false, fmt.Errorf("content-length %q: %w", value, err)
			}
		case "transfer-encoding":
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case "weft-published-us":
			r.PublishedUs, _ = strconv.ParseInt(string(value), 10, 64)
		case "weft-version":
			if v, perr := strconv.ParseInt(string(value), 10, 64); perr == nil {
				r.Version = v
			}
		}
	}
	body := p.buf[headEnd+4:]
	switch {
	case status == 204 || status == 304 || status < 200:
		return r, true, nil
	case length >= 0:
		return r, len(body) >= length, nil
	case chunked: // complete with the last chunk and the empty trailer
		return r, bytes.HasSuffix(body, []byte("0\r\n\r\n")) &&
			(len(body) == 5 || body[len(body)-6] == '\n'), nil
	default:
		return r, true, nil
	}
}

// ChunkFramer bounds a stream's reads by its HTTP/1.1 chunks. TCP's recvmsg stamps a read with the
// receive time of the last segment it copied from, so a read that ran on past an event into a
// heartbeat that came later (one every 30 s per idle stream) would carry the heartbeat's time. The
// service writes each event as one chunk in one write; reading the response head freely, then at
// most 16 bytes of a chunk's size line, then exactly the rest of that chunk, no read reaches a
// segment written after the event it completes.
type ChunkFramer struct {
	headDone bool
	line     []byte // the response head, then the current chunk's size line
	rest     int    // bytes of the current chunk still to come (data and its CRLF)
}

// Want is how many bytes the next read may take (at most room).
func (f *ChunkFramer) Want(room int) int {
	switch {
	case f.rest > 0:
		return min(f.rest, room)
	case !f.headDone:
		return room
	default:
		return min(16, room)
	}
}

// AtBoundary tells whether the next byte starts a chunk (after the response head).
func (f *ChunkFramer) AtBoundary() bool { return f.headDone && f.rest == 0 && len(f.line) == 0 }

// Consume follows the framing through bytes just read.
func (f *ChunkFramer) Consume(b []byte) error {
	for len(b) > 0 {
		if f.rest > 0 {
			n := min(f.rest, len(b))
			f.rest -= n
			b = b[n:]
			continue
		}
		f.line = append(f.line, b[0])
		b = b[1:]
		if !bytes.HasSuffix(f.line, []byte("\r\n")) {
			continue
		}
		if !f.headDone {
			if bytes.HasSuffix(f.line, []byte("\r\n\r\n")) {
				f.headDone, f.line = true, f.line[:0]
			}
			continue
		}
		sizeText, _, _ := bytes.Cut(bytes.TrimSpace(f.line), []byte(";")) // chunk extensions
		size, err := strconv.ParseUint(string(sizeText), 16, 31)
		if err != nil {
			return fmt.Errorf("chunk size %q: %w", f.line, err)
		}
		f.rest, f.line = int(size)+2, f.line[:0] // the last chunk ("0") is followed by the empty trailer line
	}
	return nil
}
