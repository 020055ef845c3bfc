package hosts

import (
	"encoding/json"
	"net/http"
	"strings"
)

// geminiRequest is what the script reads of a generateContent request.
type geminiRequest struct {
	Contents []struct {
		Parts []struct {
			FunctionCall *struct {
				Name string `json:"name"`
			} `json:"functionCall"`
			FunctionResponse json.RawMessage `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType string `json:"responseMimeType"`
	} `json:"generationConfig"`
}

// sideJSON answers a host's own JSON side request (Gemini CLI asks its
// model who speaks next and how hard the prompt is, to route it): the
// user, an easy one.
const sideJSON = `{"reasoning":"stand-in","next_speaker":"user","model_choice":"flash","complexity_reasoning":"stand-in","complexity_score":1}`

// geminiAPI answers the Gemini API (models/*:generateContent,
// :streamGenerateContent with SSE, :countTokens) from the script.
func geminiAPI(s *modelServer, w http.ResponseWriter, r *http.Request, body []byte) {
	switch {
	case strings.HasSuffix(r.URL.Path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 10})
		return
	case !strings.HasSuffix(r.URL.Path, ":generateContent") && !strings.HasSuffix(r.URL.Path, ":streamGenerateContent"):
		http.NotFound(w, r)
		return
	}
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c := conversation{body: string(body)}
	for _, tool := range req.Tools {
		for _, f := range tool.FunctionDeclarations {
			c.tools = append(c.tools, f.Name)
		}
	}
	for _, content := range req.Contents {
		for _, part := range content.Parts {
			if part.FunctionCall != nil {
				c.called = append(c.called, part.FunctionCall.Name)
			}
			if part.FunctionResponse != nil {
				c.lastResult = string(part.FunctionResponse)
			}
		}
	}
	st := s.next(c)
	part := map[string]any{"text": st.text}
	if st.tool != "" {
		part = map[string]any{"functionCall": map[string]any{"name": st.tool, "args": st.args}}
	} else if req.GenerationConfig.ResponseMimeType == "application/json" {
		part = map[string]any{"text": sideJSON}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP",
			"index":        0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 10, "totalTokenCount": 20},
		"modelVersion":  "stand-in",
	}
	if strings.HasSuffix(r.URL.Path, ":generateContent") {
		writeJSON(w, resp)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "", resp)
}
