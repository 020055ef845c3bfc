package content

import "testing"

func TestClassify(t *testing.T) {
	tests := []struct {
		source string
		kind   Kind
		public string
		ok     bool
	}{
		{"META_PROMPT.md", KindMPF, "META_PROMPT.md", true},
		{"rules/workflow/CODING.md", KindWorkflow, "workflow/CODING.md", true},
		{"rules/workflow/deep/er/X.md", KindWorkflow, "workflow/deep/er/X.md", true},
		{"rules/workflow.md", KindRule, "workflow.md", true},
		{"rules/go/STYLE.md", KindRule, "go/STYLE.md", true},
		{"rules/go/deep/STYLE.md", KindRule, "go/deep/STYLE.md", true},
		{"rules/TOP.md", KindRule, "TOP.md", true},
		{"context/arch/OVERVIEW.md", KindContext, "arch/OVERVIEW.md", true},
		{"context/workflow/X.md", KindContext, "workflow/X.md", true},
		{"context/README.md", KindContext, "README.md", true},
		{"rules/a\\b.md", KindRule, "a\\b.md", true}, // mapped; Scan judges the name
		{"config.toml", "", "", false},
		{"README.md", "", "", false},
		{"meta_prompt.md", "", "", false},
		{"state/x.md", "", "", false},
		{"rules/notes.txt", "", "", false},
		{"rules/X.MD", "", "", false},
		{"rules/.hidden.md", "", "", false},
		{"rules/.git/x.md", "", "", false},
		{"rules/../x.md", "", "", false},
		{"rules//x.md", "", "", false},
		{"rules", "", "", false},
		{"context", "", "", false},
		{"", "", "", false},
	}
	for _, tt := range tests {
		kind, public, ok := Classify(tt.source)
		if kind != tt.kind || public != tt.public || ok != tt.ok {
			t.Errorf("Classify(%q): got %q, %q, %v, want %q, %q, %v", tt.source, kind, public, ok, tt.kind, tt.public, tt.ok)
		}
	}
}

func TestSourcePath(t *testing.T) {
	t.Run("RoundTrip", func(t *testing.T) {
		for _, tt := range []struct {
			kind   Kind
			public string
		}{
			{KindMPF, MetaPromptPath},
			{KindWorkflow, "workflow/CODING.md"},
			{KindRule, "go/STYLE.md"},
			{KindRule, "TOP.md"},
			{KindContext, "arch/OVERVIEW.md"},
			{KindContext, "workflow/X.md"},
			{KindContext, "README.md"},
		} {
			source := SourcePath(tt.kind, tt.public)
			kind, public, ok := Classify(source)
			if kind != tt.kind || public != tt.public || !ok {
				t.Errorf("Classify(SourcePath(%q, %q) = %q): got %q, %q, %v, want %q, %q, true",
					tt.kind, tt.public, source, kind, public, ok, tt.kind, tt.public)
			}
		}
	})
	t.Run("Sources", func(t *testing.T) {
		for _, tt := range []struct {
			kind   Kind
			public string
			want   string
		}{
			{KindRule, "go/STYLE.md", "rules/go/STYLE.md"},
			{KindWorkflow, "workflow/X.md", "rules/workflow/X.md"},
			{KindContext, "a/B.md", "context/a/B.md"},
			{KindMPF, "anything", "META_PROMPT.md"},
			{Kind("bogus"), "x.md", ""},
		} {
			if got := SourcePath(tt.kind, tt.public); got != tt.want {
				t.Errorf("SourcePath(%q, %q): got %q, want %q", tt.kind, tt.public, got, tt.want)
			}
		}
	})
}

func TestNameOf(t *testing.T) {
	for in, want := range map[string]string{
		"workflow/CODING.md": "CODING",
		"META_PROMPT.md":     "META_PROMPT",
		"a/b/c.d.md":         "c.d",
		"TOP.md":             "TOP",
		"":                   "",
	} {
		if got := NameOf(in); got != want {
			t.Errorf("NameOf(%q): got %q, want %q", in, got, want)
		}
	}
}

func TestGroupOf(t *testing.T) {
	for in, want := range map[string]string{
		"workflow/CODING.md": "workflow",
		"go/deep/STYLE.md":   "go",
		"TOP.md":             "",
		"META_PROMPT.md":     "",
	} {
		if got := GroupOf(in); got != want {
			t.Errorf("GroupOf(%q): got %q, want %q", in, got, want)
		}
	}
}

func TestKindOfRulePath(t *testing.T) {
	for in, want := range map[string]Kind{
		"workflow/CODING.md":   KindWorkflow,
		"workflow/sub/DEEP.md": KindWorkflow,
		"workflow.md":          KindRule,
		"workflows/X.md":       KindRule,
		"go/STYLE.md":          KindRule,
	} {
		if got := KindOfRulePath(in); got != want {
			t.Errorf("KindOfRulePath(%q): got %q, want %q", in, got, want)
		}
	}
}

func TestInTree(t *testing.T) {
	for name, want := range map[string]bool{
		"META_PROMPT.md": true, "rules": true, "context": true,
		"config.toml": false, "state": false, ".gitignore": false, "rules/": false, "meta_prompt.md": false,
	} {
		if got := InTree(name); got != want {
			t.Errorf("InTree(%q): got %v, want %v", name, got, want)
		}
	}
}
