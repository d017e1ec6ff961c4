package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// maxMessage bounds one message body. A client sending more is broken or
// hostile; the body is skipped and answered with an error.
const maxMessage = 64 << 20

// stream is a jsonrpc2.Stream that survives bad input. The library's own
// stream returns an error for a malformed message, and jsonrpc2.Conn stops
// for good on any read error (see ../shared/STACK.md). Here a message that
// is not JSON gets a -32700 reply, one that is JSON but not JSON-RPC gets
// -32600, a header block without Content-Length is answered and skipped
// up to the next header, and reading goes on. Only the end of input (or a
// failed write) ends the stream.
type stream struct {
	in     *bufio.Reader
	out    io.Writer
	closer io.Closer

	wmu sync.Mutex // the Conn serialises its writes; ours (errors) must join them
}

func newStream(in io.Reader, out io.Writer, closer io.Closer) *stream {
	return &stream{in: bufio.NewReaderSize(in, 64<<10), out: out, closer: closer}
}

// Read returns the next well-formed message.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		body, junk, err := s.frame()
		if junk != "" {
			if werr := s.writeError(nil, jsonrpc2.ParseError, junk); werr != nil {
				return nil, 0, asConnError(werr)
			}
		}
		if err != nil {
			return nil, 0, asConnError(err) // end of input
		}
		if body == nil {
			continue // an oversized message, answered above
		}
		msg, derr := jsonrpc2.DecodeMessage(body)
		if derr == nil {
			return msg, int64(len(body)), nil
		}
		code, text := jsonrpc2.InvalidRequest, "invalid JSON-RPC message: "+derr.Error()
		if !json.Valid(body) {
			code, text = jsonrpc2.ParseError, "malformed JSON in message body"
		}
		if werr := s.writeError(idOf(body), code, text); werr != nil {
			return nil, 0, asConnError(werr)
		}
	}
}

const contentLength = "Content-Length:"

// frame reads one "headers CRLF CRLF body" frame. Input that is not a
// header where one is due (the body of a message that lacked
// Content-Length, say) is skipped line by line up to the next
// Content-Length header, even one glued to the end of the junk; junk
// describes what was skipped, for an error reply.
func (s *stream) frame() (body []byte, junk string, err error) {
	length := -1
	sawHeader := false
	for {
		line, err := s.in.ReadString('\n')
		if err != nil {
			return nil, junk, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !sawHeader {
				continue // stray blank lines between messages
			}
			if length >= 0 {
				break
			}
			// Headers without Content-Length: the body's size is unknown,
			// so it is skipped as junk.
			junk = "missing Content-Length header"
			sawHeader = false
			continue
		}
		if !isHeader(line) {
			i := strings.Index(line, contentLength)
			if junk == "" {
				junk = "expected a header, got " + clip(line)
			}
			if i < 0 {
				continue
			}
			line = line[i:]
		}
		sawHeader = true
		name, value, _ := strings.Cut(line, ":")
		if strings.EqualFold(name, "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				junk = "bad Content-Length " + clip(value)
				sawHeader = false
				continue
			}
			length = n
		}
	}
	if length > maxMessage {
		if _, err := s.in.Discard(length); err != nil {
			return nil, junk, err
		}
		return nil, fmt.Sprintf("message of %d bytes exceeds the %d byte limit", length, maxMessage), nil
	}
	body = make([]byte, length)
	if _, err := io.ReadFull(s.in, body); err != nil {
		return nil, junk, err
	}
	return body, junk, nil
}

// isHeader reports whether line is "Name: value" with a token name.
func isHeader(line string) bool {
	name, _, ok := strings.Cut(line, ":")
	if !ok || name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(isAlnum(c) || c == '-') {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func clip(s string) string {
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return strconv.Quote(s)
}

// idOf digs the id out of a message that did not decode, so the error
// reply can name the request; nil when there is none to be had.
func idOf(body []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(m.ID, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return m.ID
	}
	return nil
}

func (s *stream) writeError(id json.RawMessage, code jsonrpc2.Code, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc2.Error `json:"error"`
	}{"2.0", id, jsonrpc2.NewError(code, msg)})
	if err != nil {
		return err
	}
	return s.write(data)
}

func (s *stream) write(data []byte) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "Content-Length: %d\r\n\r\n", len(data))
	buf.Write(data)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err := s.out.Write(buf.Bytes())
	return err
}

// Write sends a message. The context is ignored on purpose: replies to
// cancelled requests must still go out.
func (s *stream) Write(_ context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	if err := s.write(data); err != nil {
		return 0, asConnError(err)
	}
	return int64(len(data)), nil
}

// connError is every error the connection is failed with: jsonrpc2's
// conn keeps the first in an atomic.Value, which panics when a later one
// is of another type — a reply that could not be written (EPIPE, the
// client having closed its end) and then the end of input crashed the
// server before it closed its session. The stream's errors and the
// handler's (oneErrorType) are all of this one type.
type connError struct{ err error }

func (e *connError) Error() string { return e.err.Error() }
func (e *connError) Unwrap() error { return e.err }

// asConnError is err as a *connError, nil for nil.
func asConnError(err error) error {
	if err == nil {
		return nil
	}
	if ce, ok := err.(*connError); ok {
		return ce
	}
	return &connError{err}
}

// oneErrorType is h with its errors made *connError.
func oneErrorType(h jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		return asConnError(h(ctx, reply, req))
	}
}

func (s *stream) Close() error {
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}
