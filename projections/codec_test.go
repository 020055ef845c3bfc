package projections

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// viaJSON decodes a refer payload the slow way, the one scanRefs must
// agree with.
func viaJSON(data []byte) (refs, error) {
	var d events.ReferData
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	var rs refs
	for _, r := range d.Refs {
		rs = append(rs, ruleConstraint{r.RuleID, r.ConstraintID})
	}
	return rs, nil
}

func TestScanRefs(t *testing.T) {
	tests := []struct {
		name string
		data string
		fast bool // the scanner decides
	}{
		{"Typical", `{"refs":[{"ruleId":"p-1","ruleHash":"sha256:ab","constraintId":"Steps/1","name":"Steps","textHash":"sha256:cd","reason":"used"},{"ruleId":"p-2","constraintId":"Stil (2)"}]}`, true},
		{"SpacesAndUnicode", " {\n \"refs\" : [ { \"constraintId\" : \"Règles/3\" , \"ruleId\" : \"p-1\" , \"reason\" : \"naïve \\\"quote\\\" \\u00e9\" } ] } ", true},
		{"Empty", `{"refs":[]}`, true},
		{"NullRefs", `{"refs":null}`, true},
		{"NoRefs", `{}`, true},
		{"UnknownKeys", `{"x":[1,-2.5e3,true,false,null,{"y":"z"}],"refs":[{"ruleId":"p","extra":{"a":[]}}]}`, true},
		{"NullFields", `{"refs":[{"ruleId":null,"constraintId":"c","name":null}]}`, true},
		{"DuplicateKey", `{"refs":[{"ruleId":"a","ruleId":"b","constraintId":"c"}]}`, true},
		{"EscapedID", `{"refs":[{"ruleId":"p\u002d1","constraintId":"c"}]}`, false},
		{"InvalidUTF8ID", "{\"refs\":[{\"ruleId\":\"p\xff\",\"constraintId\":\"c\"}]}", false},
		{"FoldedKey", `{"refs":[{"RULEID":"p","constraintId":"c"}]}`, false},
		{"UnicodeFoldedKey", `{"refs":[{"ruleId":"p","conſtraintId":"c"}]}`, false},
		{"FoldedRefs", `{"Refs":[{"ruleId":"p"}]}`, false},
		{"DuplicateRefs", `{"refs":[{"ruleId":"p"}],"refs":[]}`, false},
		{"NullElement", `{"refs":[null]}`, false},
		{"WrongType", `{"refs":[{"ruleId":"p","name":5}]}`, false},
		{"NotAnArray", `{"refs":{}}`, false},
		{"Trailing", `{"refs":[]} x`, false},
		{"Truncated", `{"refs":[{"ruleId":"p"`, false},
		{"BadNumber", `{"n":01,"refs":[]}`, false},
		{"ControlInString", "{\"refs\":[{\"reason\":\"a\tb\"}]}", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := scanRefs([]byte(tt.data))
			if ok != tt.fast {
				t.Fatalf("scanner decides: got %v, want %v", ok, tt.fast)
			}
			if !ok {
				return
			}
			want, err := viaJSON([]byte(tt.data))
			if err != nil {
				t.Fatalf("encoding/json rejects what the scanner took: %v", err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

// FuzzScanRefs checks that whenever the scanner decides, encoding/json
// decides the same.
func FuzzScanRefs(f *testing.F) {
	for _, s := range []string{
		`{"refs":[{"ruleId":"p-1","ruleHash":"sha256:ab","constraintId":"Steps/1","name":"Steps","textHash":"sha256:cd","reason":"used"}]}`,
		`{"refs":null,"x":[1,2.5,-0e+1,{"a":"\u00e9\n"}]}`,
		`{"refs":[{"ruleId":null},{"constraintId":"x","ruleId":"y"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := scanRefs(data)
		if !ok {
			return
		}
		want, err := viaJSON(data)
		if err != nil {
			t.Fatalf("scanner took %q, encoding/json rejects it: %v", data, err)
		}
		if len(got) == 0 && len(want) == 0 {
			return
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q: got %v, want %v", data, got, want)
		}
	})
}

// TestPayloadOf_EveryType: every type of the events table either has its
// registered payload decoded for the models, when a model of the registry
// names it in Folds, or is left to its envelope.
func TestPayloadOf_EveryType(t *testing.T) {
	read := engine.Declared(newState().models.Models(), folder.Folds)
	if len(read) == 0 {
		t.Fatal("no model of the registry names a type in Folds")
	}
	for _, typ := range events.Types() {
		want, _ := events.NewPayload(typ)
		ev, err := events.New("ws-1", typ, want)
		if err != nil {
			t.Fatal(err)
		}
		got, err := payloadOf(&ev)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		switch {
		case typ == events.TypeRefer:
			if _, ok := got.(refs); !ok {
				t.Errorf("%s: got %T, want refs", typ, got)
			}
		case read[typ]:
			if reflect.TypeOf(got) != reflect.TypeOf(want) {
				t.Errorf("%s: got %T, want %T", typ, got, want)
			}
		case got != nil:
			t.Errorf("%s: got %T, want nothing: no model reads it", typ, got)
		}
		ev.Outcome = events.OutcomeError
		if got, _ := payloadOf(&ev); got != nil {
			t.Errorf("failed %s: got %T, want nothing", typ, got)
		}
	}
}
