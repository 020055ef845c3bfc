package mcp

import (
	"context"
	"encoding/json"
	"sync"
)

// A successful call's answer, encoded: its JSON (structuredContent) and its
// text block. Over stdio the bytes of an answer that encodes itself
// (jsonAppender: memdisc's, 15-30 KiB for 50 items) are written into a
// pooled buffer, which the stdio transport gives back once it has written
// the answer's line (encoded.go): a serving process answers calls one
// after another, and each of those answers was garbage the moment its
// line was written. Elsewhere (HTTP, in memory) the SDK keeps the bytes,
// and they are never pooled.

// resultBytes is a successful call's answer, encoded.
type resultBytes struct {
	// body is the result's JSON.
	body []byte
	// text is the text block written for the model (modelText), nil for
	// the JSON copy.
	text []byte
	// buf, if set, is the pooled buffer that body and text are in, to be
	// given back (putAnswerBuf) once the answer is written.
	buf *[]byte
}

// jsonAppender is a result that encodes itself: the bytes encoding/json
// would write, appended to dst.
type jsonAppender interface {
	appendJSON(dst []byte) []byte
}

// encodeAnswer encodes result for a client of protocol version v, into a
// pooled buffer when ctx is a stdio connection's (withEncodedAnswers) and
// result encodes itself.
func encodeAnswer(ctx context.Context, result any, v string) (resultBytes, error) {
	a, ok := result.(jsonAppender)
	if !ok {
		body, err := json.Marshal(result)
		if err != nil {
			return resultBytes{}, err
		}
		return resultBytes{body: body, text: textFor(nil, result, v)}, nil
	}
	var ans resultBytes
	var dst []byte
	if encodedIn(ctx) != nil {
		ans.buf = getAnswerBuf()
		dst = *ans.buf
	}
	dst = a.appendJSON(dst)
	n := len(dst)
	dst = textFor(dst, result, v)
	ans.body = dst[:n:n]
	if len(dst) > n {
		ans.text = dst[n:]
	}
	if ans.buf != nil {
		*ans.buf = dst
	}
	return ans, nil
}

// maxPooledAnswer is the largest buffer kept for another answer: a
// memdisc of 200 items (its default limit) fits, and one rare answer of a
// thousand is not held on to.
const maxPooledAnswer = 256 << 10

// answerBufs are buffers for answers and their lines (*[]byte).
var answerBufs = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

// getAnswerBuf returns an empty buffer from the pool.
func getAnswerBuf() *[]byte {
	b := answerBufs.Get().(*[]byte)
	*b = (*b)[:0]
	return b
}

// putAnswerBuf gives b back to the pool; nothing may read or write it
// after. A nil b is ignored.
func putAnswerBuf(b *[]byte) {
	if b == nil || cap(*b) > maxPooledAnswer {
		return
	}
	*b = (*b)[:0]
	answerBufs.Put(b)
}
