package front

import (
	"os"
	"strings"
	"testing"
)

func TestHandover_RoundTrip(t *testing.T) {
	in := State{Request: []byte(`{"id":1}`), Answer: []byte(`{"id":1,"result":{}}`), Rest: []byte("next\n\x00\xff")}
	t.Setenv(Env, in.Encode())
	out, ok, err := Take()
	if err != nil || !ok {
		t.Fatalf("ok %v err %v", ok, err)
	}
	if string(out.Request) != string(in.Request) || string(out.Answer) != string(in.Answer) || string(out.Rest) != string(in.Rest) {
		t.Fatalf("got %+v, want %+v", out, in)
	}
	if _, set := os.LookupEnv(Env); set {
		t.Fatal("Take left the handover in the environment, where a child would inherit it")
	}
}

func TestHandover_None(t *testing.T) {
	t.Setenv(Env, "")
	os.Unsetenv(Env)
	if _, ok, err := Take(); ok || err != nil {
		t.Fatalf("ok %v err %v", ok, err)
	}
}

func TestHandover_Refused(t *testing.T) {
	for name, v := range map[string]string{
		"not JSON":                         "{",
		"another layout":                   `{"v":2,"rest":""}`,
		"a request without its answer":     `{"v":1,"request":"e30="}`,
		"an answer without its request":    `{"v":1,"answer":"e30="}`,
		"no layout (a hand-made variable)": `{"rest":"e30="}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(Env, v)
			if _, ok, err := Take(); !ok || err == nil {
				t.Fatalf("ok %v err %v", ok, err)
			} else if name == "another layout" && !strings.Contains(err.Error(), "different builds") {
				t.Fatalf("error %v does not say what to do", err)
			}
		})
	}
}
