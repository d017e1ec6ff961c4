package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Limits of the stdio transport.
const (
	// MaxLine is the longest message read; a longer line is answered
	// with an error and skipped, and the server reads on.
	MaxLine = 32 << 20
	// DrainTimeout bounds how long, once its input has ended, the server
	// keeps answering the requests it had already read.
	DrainTimeout = 10 * time.Second
)

// Stdio is an MCP transport over newline-delimited JSON that never dies of
// its input, unlike the SDK's: a line that is not JSON is answered -32700,
// a batch or a message that is not JSON-RPC 2.0 -32600 (with the id when it
// can be read), and the server reads on. When the input ends, the requests
// already read are answered (for at most DrainTimeout) before the
// connection closes. Errors the SDK leaves without a code get one.
type Stdio struct {
	In  io.Reader
	Out io.Writer
}

// Connect starts reading.
func (t *Stdio) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{out: t.Out, lines: make(chan []byte), done: make(chan struct{}), pending: map[string]bool{}, idle: make(chan struct{})}
	go c.readLines(t.In)
	return c, nil
}

type lineConn struct {
	out   io.Writer
	wmu   sync.Mutex
	lines chan []byte // nil line: the input ended
	done  chan struct{}
	once  sync.Once

	mu      sync.Mutex
	pending map[string]bool // ids of requests read and not yet answered
	idle    chan struct{}   // closed when pending empties after input ended
	ended   bool
}

func (c *lineConn) readLines(in io.Reader) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := readLine(r)
		switch {
		case err == errTooLong:
			line = []byte{} // answered by Read as too long
		case len(bytes.TrimSpace(line)) == 0 && err == nil:
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 || err == errTooLong {
			select {
			case c.lines <- line:
			case <-c.done:
				return
			}
		}
		if err != nil && err != errTooLong {
			select {
			case c.lines <- nil: // the input ended
			case <-c.done:
			}
			return
		}
	}
}

var errTooLong = errors.New("message longer than the limit")

// readLine reads one line, without its newline; a line over MaxLine is
// consumed and reported as (nil, errTooLong).
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxLine {
			for err == bufio.ErrBufferFull {
				_, err = r.ReadSlice('\n')
			}
			if err != nil && err != bufio.ErrBufferFull {
				return nil, err
			}
			return nil, errTooLong
		}
		buf = append(buf, chunk...)
		switch err {
		case bufio.ErrBufferFull:
			continue
		case nil:
			return bytes.TrimRight(buf, "\r\n"), nil
		default:
			return buf, err
		}
	}
}

// Read returns the next message the server should handle, answering
// every malformed line itself.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var line []byte
		select {
		case line = <-c.lines:
		case <-c.done:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if line == nil {
			c.drain()
			return nil, io.EOF
		}
		msg, id, code, why := decode(line)
		if msg == nil {
			c.writeError(id, code, why)
			continue
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
			c.mu.Lock()
			c.pending[idKey(req.ID)] = true
			c.mu.Unlock()
		}
		return msg, nil
	}
}

// decode reads one line as a JSON-RPC 2.0 message, or says what is wrong
// with it (a JSON-RPC error code and the id, raw JSON, when readable).
func decode(line []byte) (msg jsonrpc.Message, id json.RawMessage, code int, why string) {
	if len(line) == 0 {
		return nil, nil, jsonrpc.CodeInvalidRequest, "message longer than the limit"
	}
	if !json.Valid(line) {
		return nil, nil, jsonrpc.CodeParseError, "not JSON"
	}
	if t := bytes.TrimSpace(line); t[0] == '[' {
		return nil, nil, jsonrpc.CodeInvalidRequest, "batches are not supported (MCP dropped JSON-RPC batching)"
	}
	var head struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return nil, nil, jsonrpc.CodeInvalidRequest, "not a JSON-RPC message"
	}
	if head.JSONRPC == nil || *head.JSONRPC != "2.0" {
		return nil, head.ID, jsonrpc.CodeInvalidRequest, `jsonrpc must be "2.0"`
	}
	m, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, head.ID, jsonrpc.CodeInvalidRequest, "invalid JSON-RPC message: " + err.Error()
	}
	return m, nil, 0, ""
}

func idKey(id jsonrpc.ID) string { return fmt.Sprint(id.Raw()) }

// drain waits until every request read has been answered, or DrainTimeout.
func (c *lineConn) drain() {
	c.mu.Lock()
	c.ended = true
	empty := len(c.pending) == 0
	c.mu.Unlock()
	if empty {
		return
	}
	select {
	case <-c.idle:
	case <-c.done:
	case <-time.After(DrainTimeout):
	}
}

// Write writes one message; a response settles its request, and an error
// the SDK left without a code gets one.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		resp.Error = withCode(resp.Error)
		defer c.answered(resp.ID)
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(data)
}

func (c *lineConn) answered(id jsonrpc.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, idKey(id))
	if c.ended && len(c.pending) == 0 {
		select {
		case <-c.idle:
		default:
			close(c.idle)
		}
	}
}

// withCode gives a code to an error that has none: -32002 when it is the
// SDK refusing a request before initialize, -32603 otherwise.
func withCode(err error) error {
	if err == nil {
		return nil
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) && we.Code != 0 {
		return err
	}
	code := int64(jsonrpc.CodeInternalError)
	if strings.Contains(err.Error(), "initializ") {
		code = codeNotInitialized
	}
	return &jsonrpc.Error{Code: code, Message: err.Error()}
}

// codeNotInitialized is JSON-RPC's "server not initialized".
const codeNotInitialized = -32002

func (c *lineConn) writeError(id json.RawMessage, code int, why string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	msg, _ := json.Marshal(why)
	c.writeLine([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, id, code, msg)))
}

func (c *lineConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.out.Write(append(data, '\n')); err != nil {
		return err
	}
	return nil
}

// Close ends the connection.
func (c *lineConn) Close() error {
	c.once.Do(func() { close(c.done) })
	return nil
}

// SessionID is empty: stdio carries one session.
func (c *lineConn) SessionID() string { return "" }
