package hook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
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
	f, err := os.Open(transcript)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > transcriptTail {
		if _, err := f.Seek(st.Size()-transcriptTail, io.SeekStart); err != nil {
			return nil
		}
	}
	var seen []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
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
			continue // the first line of a cut tail, or another shape
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
