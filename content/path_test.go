package content

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

func TestCleanPath(t *testing.T) {
	long := strings.Repeat("a", MaxPathLen-len(".md"))
	tests := []struct {
		name    string
		in      string
		want    string
		wantErr string // the rule named in the error; "" when accepted
	}{
		{name: "AppendsMD", in: "go/STYLE", want: "go/STYLE.md"},
		{name: "KeepsMD", in: "go/STYLE.md", want: "go/STYLE.md"},
		{name: "UpperCaseExtensionIsNotMD", in: "X.MD", want: "X.MD.md"},
		{name: "TrimsSpace", in: "  workflow/CODING.md \n", want: "workflow/CODING.md"},
		{name: "InnerSpacesKept", in: "my notes/a b", want: "my notes/a b.md"},
		{name: "DotsInsideSegment", in: "a/b.c..d", want: "a/b.c..d.md"},
		{name: "Unicode", in: "régles/日本", want: "régles/日本.md"},
		{name: "LongestAccepted", in: long, want: long + ".md"},
		{name: "Empty", in: "", wantErr: "empty"},
		{name: "OnlySpace", in: " \t ", wantErr: "empty"},
		{name: "Absolute", in: "/etc/passwd", wantErr: "absolute path"},
		{name: "DotSegment", in: "a/./b", wantErr: `"." segment`},
		{name: "DotDotSegment", in: "a/../b", wantErr: `".." segment`},
		{name: "DotDotAlone", in: "..", wantErr: `".." segment`},
		{name: "EmptySegment", in: "a//b", wantErr: "empty segment"},
		{name: "TrailingSlash", in: "a/", wantErr: "empty segment"},
		{name: "Backslash", in: `a\b`, wantErr: "backslash"},
		{name: "NUL", in: "a\x00b", wantErr: "NUL byte"},
		{name: "ControlCharacter", in: "a\x1bb", wantErr: "control character"},
		{name: "DEL", in: "a\x7fb", wantErr: "control character"},
		{name: "C1Control", in: "a\u0085b", wantErr: "control character"},
		{name: "NewlineInside", in: "a\nb", wantErr: "control character"},
		{name: "HiddenSegment", in: "a/.git/b", wantErr: `segment starts with "."`},
		{name: "OnlyExtension", in: ".md", wantErr: `segment starts with "."`},
		{name: "TooLong", in: long + "a", wantErr: "longer than 512 bytes"},
		{name: "InvalidUTF8", in: "a\xffb", wantErr: "not valid UTF-8"},
		{name: "ReplacementCharacter", in: "a\ufffdb", wantErr: "replacement character U+FFFD (invalid UTF-8 or a lone surrogate)"},
		{name: "BidiOverride", in: "go/evil\u202Edm.exe", wantErr: "invisible formatting character U+202E"},
		{name: "BidiIsolate", in: "go/a\u2066b", wantErr: "invisible formatting character U+2066"},
		{name: "LeftToRightMark", in: "go/a\u200eb", wantErr: "invisible formatting character U+200E"},
		{name: "ZeroWidthSpace", in: "go/STY\u200bLE", wantErr: "invisible formatting character U+200B"},
		{name: "ZeroWidthJoiner", in: "go/a\u200db", wantErr: "invisible formatting character U+200D"},
		{name: "WordJoiner", in: "go/a\u2060b", wantErr: "invisible formatting character U+2060"},
		{name: "ByteOrderMark", in: "\ufeffgo/a", wantErr: "invisible formatting character U+FEFF"},
		{name: "SoftHyphen", in: "go/sty\u00adle", wantErr: "invisible formatting character U+00AD"},
		{name: "NoBreakSpace", in: "my\u00a0notes/a", wantErr: "space character U+00A0; use a plain space"},
		{name: "IdeographicSpace", in: "a\u3000b", wantErr: "space character U+3000; use a plain space"},
		{name: "PrivateUse", in: "a\ue000b", wantErr: "unprintable character U+E000"},
		{name: "Unassigned", in: "a\U000e0fffb", wantErr: "unprintable character U+E0FFF"},
		{name: "FullwidthLetters", in: "go/\uff33\uff34\uff39\uff2c\uff25", wantErr: "not in Unicode NFKC form (look-alike characters); write it with plain characters"},
		{name: "Ligature", in: "go/\ufb01le", wantErr: "not in Unicode NFKC form (look-alike characters); write it with plain characters"},
		{name: "DecomposedAccent", in: "re\u0301gles/a", wantErr: "not in Unicode NFKC form (look-alike characters); write it with plain characters"},
		{name: "CyrillicInLatin", in: "go/p\u0430ypal", wantErr: "word \"p\u0430ypal\" mixes Latin and Cyrillic letters"},
		{name: "GreekInLatin", in: "go/\u03bfk", wantErr: "word \"\u03bfk\" mixes Greek and Latin letters"},
		{name: "ScriptsInDifferentWords", in: "go/правила-style", want: "go/правила-style.md"},
		{name: "AllCyrillic", in: "правила/стиль", want: "правила/стиль.md"},
		{name: "ScriptsInDifferentSegments", in: "docs/правила", want: "docs/правила.md"},
		{name: "LatinWithHan", in: "go/日本style", want: "go/日本style.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CleanPath(tt.in)
			if tt.wantErr == "" {
				if err != nil || got != tt.want {
					t.Errorf("CleanPath(%q): got %q, %v, want %q, nil", tt.in, got, err, tt.want)
				}
				return
			}
			if !errors.Is(err, ErrUnsafePath) || !strings.HasSuffix(err.Error(), ": "+tt.wantErr) {
				t.Errorf("CleanPath(%q): got %q, %v, want an ErrUnsafePath ending in %q", tt.in, got, err, tt.wantErr)
			}
			if got != "" {
				t.Errorf("CleanPath(%q): got path %q with an error, want \"\"", tt.in, got)
			}
		})
	}
}

func TestCleanPath_ErrorMessage(t *testing.T) {
	_, err := CleanPath("a/../b")
	if got, want := err.Error(), `content: unsafe path "a/../b": ".." segment`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestIsMetaPrompt(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"META_PROMPT.md", true},
		{"META_PROMPT", true},
		{"meta_prompt.MD", true},
		{"docs/Meta_Prompt.md", true},
		{"META_PROMPT.MD.md", true},
		{" META_PROMPT.md ", true},
		{"META_PROMPT2.md", false},
		{"META_PROMPT/x.md", false},
		{"NOT_META_PROMPT.md", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsMetaPrompt(tt.in); got != tt.want {
			t.Errorf("IsMetaPrompt(%q): got %v, want %v", tt.in, got, tt.want)
		}
	}
}

func FuzzCleanPath(f *testing.F) {
	for _, seed := range []string{
		"go/STYLE", "workflow/CODING.md", " a ", "a/../b", "/abs", "a//b", `a\b`,
		"a\x00", ".hidden/x", "..", ".md", "a/", "\u0085x\u00a0", "\xff", "X.MD",
		"a\ufffd", "evil\u202Egpj.md", "a\u200bb", "\uff33", "re\u0301gle", "p\u0430ypal", "правила/стиль",
		strings.Repeat("a", MaxPathLen),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := CleanPath(in)
		if err != nil {
			if !errors.Is(err, ErrUnsafePath) {
				t.Errorf("CleanPath(%q): got error %v, want one wrapping ErrUnsafePath", in, err)
			}
			return
		}
		if again, err := CleanPath(got); again != got || err != nil {
			t.Errorf("CleanPath(%q) = %q: cleaning again got %q, %v, want %q, nil", in, got, again, err, got)
		}
		checkCleanPath(t, got)
	})
}

// checkCleanPath fails tb when a path CleanPath accepted breaks one of
// its promises.
func checkCleanPath(tb testing.TB, p string) {
	tb.Helper()
	switch {
	case !strings.HasSuffix(p, ".md"):
		tb.Errorf("got %q, want a path ending in .md", p)
	case len(p) > MaxPathLen:
		tb.Errorf("got %d bytes, want at most %d", len(p), MaxPathLen)
	case !utf8.ValidString(p):
		tb.Errorf("got %q, want valid UTF-8", p)
	case strings.HasPrefix(p, "/"):
		tb.Errorf("got %q, want a relative path", p)
	case strings.ContainsRune(p, '\\'):
		tb.Errorf("got %q, want no backslash", p)
	case strings.IndexFunc(p, unicode.IsControl) >= 0:
		tb.Errorf("got %q, want no control characters", p)
	case strings.IndexFunc(p, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) >= 0:
		tb.Errorf("got %q, want only printable characters and plain spaces", p)
	case strings.ContainsRune(p, utf8.RuneError):
		tb.Errorf("got %q, want no U+FFFD", p)
	case !norm.NFKC.IsNormalString(p):
		tb.Errorf("got %q, want NFKC", p)
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "" || seg == ".." || strings.HasPrefix(seg, ".") {
			tb.Errorf("got %q with segment %q, want non-empty segments not starting with \".\"", p, seg)
		}
	}
}
