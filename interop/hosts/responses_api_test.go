package hosts

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// responsesTool is a tool of a Responses API request; Codex may group a
// server's tools under a namespace.
type responsesTool struct {
	Name  string          `json:"name"`
	Tools []responsesTool `json:"tools"`
}

// responsesRequest is what the script reads of a Responses API request.
type responsesRequest struct {
	Tools []responsesTool `json:"tools"`
	Input []struct {
		Type   string          `json:"type"`
		Name   string          `json:"name"`
		Output json.RawMessage `json:"output"`
	} `json:"input"`
}

func (t responsesTool) names() []string {
	if len(t.Tools) == 0 {
		return []string{t.Name}
	}
	var names []string
	for _, sub := range t.Tools {
		names = append(names, sub.names()...)
	}
	return names
}

// responsesAPI answers the OpenAI Responses API (POST .../responses, with
// SSE streaming) from the script.
func responsesAPI(s *modelServer, w http.ResponseWriter, r *http.Request, body []byte) {
	if !strings.HasSuffix(r.URL.Path, "/responses") {
		http.NotFound(w, r)
		return
	}
	var req responsesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c := conversation{body: string(body)}
	for _, tool := range req.Tools {
		c.tools = append(c.tools, tool.names()...)
	}
	for _, in := range req.Input {
		switch in.Type {
		case "function_call":
			c.called = append(c.called, in.Name)
		case "function_call_output":
			c.lastResult = string(in.Output)
		}
	}
	st := s.next(c)
	n := s.count()
	item := map[string]any{"type": "message", "id": fmt.Sprintf("msg_%02d", n), "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": st.text, "annotations": []any{}}}}
	if st.tool != "" {
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%02d", n), "call_id": fmt.Sprintf("call_%02d", n),
			"name": st.tool, "arguments": mustJSON(st.args), "status": "completed"}
		if ns := namespaceOf(req.Tools, st.tool); ns != "" {
			item["namespace"] = ns
		}
	}
	resp := map[string]any{"id": fmt.Sprintf("resp_%02d", n), "object": "response", "model": "stand-in", "status": "in_progress", "output": []any{}}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "response.created", map[string]any{"type": "response.created", "response": resp})
	sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	if st.tool == "" {
		sse(w, "response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": item["id"],
			"output_index": 0, "content_index": 0, "delta": st.text})
	}
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	resp["status"], resp["output"] = "completed", []any{item}
	resp["usage"] = map[string]any{"input_tokens": 10, "output_tokens": 10, "total_tokens": 20,
		"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": resp})
}

// namespaceOf returns the namespace a tool is grouped under, or "".
func namespaceOf(tools []responsesTool, name string) string {
	for _, t := range tools {
		for _, sub := range t.Tools {
			if sub.Name == name {
				return t.Name
			}
		}
	}
	return ""
}
