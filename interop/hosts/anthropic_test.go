package hosts

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// anthropicRequest is what the script reads of a Messages API request.
type anthropicRequest struct {
	Stream bool `json:"stream"`
	Tools  []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// anthropicAPI answers the Anthropic Messages API (POST /v1/messages, with
// or without SSE streaming) from the script, and count_tokens with a
// small number.
func anthropicAPI(s *modelServer, w http.ResponseWriter, r *http.Request, body []byte) {
	if strings.HasSuffix(r.URL.Path, "/count_tokens") {
		writeJSON(w, map[string]any{"input_tokens": 10})
		return
	}
	if !strings.HasSuffix(r.URL.Path, "/messages") {
		http.NotFound(w, r)
		return
	}
	var req anthropicRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c := conversation{body: string(body)}
	for _, tool := range req.Tools {
		c.tools = append(c.tools, tool.Name)
	}
	if len(req.Messages) > 0 && req.Messages[0].Role == "user" {
		c.first = string(req.Messages[0].Content)
	}
	for _, m := range req.Messages {
		var blocks []struct {
			Type    string          `json:"type"`
			Name    string          `json:"name"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) == nil {
			for _, b := range blocks {
				switch b.Type {
				case "tool_use":
					c.called = append(c.called, b.Name)
				case "tool_result":
					c.lastResult = string(b.Content)
				}
			}
		}
	}
	st := s.next(c)
	n := s.count()
	block, stop := map[string]any{"type": "text", "text": st.text}, "end_turn"
	if st.tool != "" {
		block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%02d", n), "name": st.tool, "input": st.args}
		stop = "tool_use"
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 10}
	msg := map[string]any{"id": fmt.Sprintf("msg_%02d", n), "type": "message", "role": "assistant", "model": "stand-in",
		"content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage}
	if !req.Stream {
		writeJSON(w, msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"], start["stop_reason"] = []any{}, nil
	sse(w, "message_start", map[string]any{"type": "message_start", "message": start})
	if st.tool != "" {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": st.tool, "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": mustJSON(st.args)}})
	} else {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": st.text}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 10}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}
