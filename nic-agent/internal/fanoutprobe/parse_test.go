package fanoutprobe

import (
	"errors"
	"slices"
	"strconv"
	"testing"
)

func TestEventScannerFindsStampsAcrossReads(t *testing.T) {
	stream := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
		"5\r\n:\n\n\r\n" + // a heartbeat
		"40\r\n:published-us=1700000000000001\nevent:profile\nid:7\ndata:{}\n\n\r\n" +
		"40\r\n:published-us=1700000000000002\nevent:profile\nid:8\ndata:{}\n\n\r\n"
	for _, cut := range []int{1, 3, 14, 17, 30, 1000} {
		t.Run("reads of "+itoa(cut), func(t *testing.T) {
			var s EventScanner
			var got []int64
			for i := 0; i < len(stream); i += cut {
				got = append(got, s.Feed([]byte(stream[i:min(len(stream), i+cut)]))...)
			}
			if !slices.Equal(got, []int64{1700000000000001, 1700000000000002}) {
				t.Fatalf("stamps %v", got)
			}
		})
	}
}

func TestResponseParserCompletesEachKindOfAnswer(t *testing.T) {
	cases := []struct {
		name, answer string
		want         Response
	}{
		{"content-length", "HTTP/1.1 200 OK\r\nContent-Length: 13\r\nWeft-Version: 9\r\n" +
			"weft-published-us: 1700000000000005\r\n\r\n{\"version\":9}", Response{200, 1700000000000005, 9}},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
			Response{200, 0, -1}},
		{"not modified", "HTTP/1.1 304 Not Modified\r\nWeft-Version: 4\r\n\r\n", Response{304, 0, 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p ResponseParser
			for i := 0; i < len(c.answer)-1; i++ {
				if _, done, err := p.Feed([]byte{c.answer[i]}); done || err != nil {
					t.Fatalf("done=%v err=%v after %d of %d bytes", done, err, i+1, len(c.answer))
				}
			}
			r, done, err := p.Feed([]byte{c.answer[len(c.answer)-1]})
			if !done || err != nil || r != c.want {
				t.Fatalf("got %+v done=%v err=%v, want %+v", r, done, err, c.want)
			}
		})
	}
	var p ResponseParser
	if _, _, err := p.Feed([]byte("SSH-2.0-OpenSSH\r\n\r\n")); !errors.Is(err, ErrNotHTTP) {
		t.Fatalf("err %v, want ErrNotHTTP", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestChunkFramerNeverReadsPastTheEventsChunk(t *testing.T) {
	head := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
	heartbeat := "3\r\n:\n\n\r\n"
	data := ":published-us=1700000000000001\nevent:profile\nid:7\ndata:{}\n\n"
	event := strconv.FormatInt(int64(len(data)), 16) + "\r\n" + data + "\r\n"
	stream := head + heartbeat + event + heartbeat + event + "0\r\n\r\n"
	eventEnds := map[int]bool{len(head + heartbeat + event): true, len(head + heartbeat + event + heartbeat + event): true}
	var f ChunkFramer
	// The response head comes alone (the stream opens at the NIC's current version): read freely.
	if err := f.Consume([]byte(head)); err != nil {
		t.Fatal(err)
	}
	for at := len(head); at < len(stream); {
		n := min(f.Want(4096), len(stream)-at)
		for end := range eventEnds {
			if at < end && at+n > end {
				t.Fatalf("a read of %d bytes at %d runs past an event's end at %d", n, at, end)
			}
		}
		if err := f.Consume([]byte(stream[at : at+n])); err != nil {
			t.Fatal(err)
		}
		at += n
	}
	if f.rest != 0 || len(f.line) != 0 {
		t.Fatalf("framing left rest %d line %q", f.rest, f.line)
	}
	var bad ChunkFramer
	if err := bad.Consume([]byte(head + "zz\r\n")); err == nil {
		t.Fatal("a size line that is not hex was accepted")
	}
}
