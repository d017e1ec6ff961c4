package hook

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"syscall"
)

// The files an agent worked on in its session are where it is: read from
// the tail of its transcript (the tool calls it made that took a file),
// they order the candidates of a path it asked for as an editor's visits
// do. Only the tail is read: the recent calls are the ones that count,
// and a long session's transcript is megabytes.
const (
	transcriptTail = 512 << 10
	maxWorkedOn    = 20
)

// workedOn lists the files the transcript's recent tool calls took, most
// recent last, each once ("" or an unreadable transcript: none).
func workedOn(transcript string) []string {
	if transcript == "" {
		return nil
	}
	var seen []string
	for _, line := range bytes.Split(readTail(transcript, transcriptTail), []byte{'\n'}) {
		if !bytes.Contains(line, []byte(`"tool_use"`)) {
			continue
		}
		var entry struct {
			Message struct {
				Content []struct {
					Type  string         `json:"type"`
					Name  string         `json:"name"`
					Input map[string]any `json:"input"`
				} `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &entry) != nil {
			continue // another shape
		}
		for _, c := range entry.Message.Content {
			if c.Type != "tool_use" {
				continue
			}
			field, ok := fileTools[c.Name]
			if c.Name == "Write" {
				field, ok = "file_path", true
			}
			if p, _ := c.Input[field].(string); ok && p != "" {
				seen = append(seen, p)
			}
		}
	}
	// Most recent last, each once, at most maxWorkedOn.
	var out []string
	have := map[string]bool{}
	for i := len(seen) - 1; i >= 0 && len(out) < maxWorkedOn; i-- {
		if !have[seen[i]] {
			have[seen[i]] = true
			out = append(out, seen[i])
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// readTail is the last n bytes of the regular file at path, the first
// line left out when the tail cuts it (nil: unreadable, or not a regular
// file). Anything else a harness may name — a FIFO, which would block
// the hook until it is killed; /dev/zero, which never ends — is not
// opened for reading at all: the open does not wait (O_NONBLOCK) and the
// file's kind is checked on what was opened.
func readTail(path string, n int64) []byte {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return nil
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	cut := false
	if st.Size() > n {
		if _, err := f.Seek(st.Size()-n, io.SeekStart); err != nil {
			return nil
		}
		cut = true
	}
	b, err := io.ReadAll(io.LimitReader(f, n))
	if err != nil {
		return nil
	}
	if cut {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return b
}
