package compress

import "testing"

func TestClassify(t *testing.T) {
	tests := []struct {
		name       string
		used, size int64
		want       Level
	}{
		{"empty", 0, 200000, Green},
		{"unknown window", 5000, 0, Green},
		{"just under 25%", 49999, 200000, Green},
		{"25% is yellow", 50000, 200000, Yellow},
		{"just under 50%", 99999, 200000, Yellow},
		{"50% is orange", 100000, 200000, Orange},
		{"just under 75%", 149999, 200000, Orange},
		{"75% is red", 150000, 200000, Red},
		{"85% is still red", 170000, 200000, Red},
		{"just over 85% is critical", 170001, 200000, Critical},
		{"over the window", 250000, 200000, Critical},
		{"small window", 3, 4, Red},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Classify(tt.used, tt.size); got != tt.want {
				t.Errorf("Classify(%d, %d) = %s, want %s", tt.used, tt.size, got, tt.want)
			}
		})
	}
}

func TestParseLevel(t *testing.T) {
	for l := Green; l <= Critical; l++ {
		got, err := ParseLevel(l.String())
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v", l.String(), got, err)
		}
	}
	if _, err := ParseLevel("PURPLE"); err == nil {
		t.Error("ParseLevel(PURPLE) succeeded")
	}
}

func TestMeterPrefersAgentReport(t *testing.T) {
	m := NewMeter(1000)
	m.Add(300)
	if u := m.Usage(); !u.Estimated || u.Used != 300 || u.Level() != Yellow {
		t.Fatalf("estimate: got %+v level %s", u, u.Level())
	}
	m.AddBytes(400) // 100 tokens at four bytes per token
	if u := m.Usage(); u.Used != 400 {
		t.Fatalf("after AddBytes: used %d, want 400", u.Used)
	}
	m.Report(1800, 2000)
	if u := m.Usage(); u.Estimated || u.Used != 1800 || u.Size != 2000 || u.Level() != Critical {
		t.Fatalf("reported: got %+v level %s", u, u.Level())
	}
	m.Add(10000) // estimates do not override a report
	if u := m.Usage(); u.Used != 1800 {
		t.Fatalf("estimate overrode the report: %+v", u)
	}
	m.Reset(50)
	if u := m.Usage(); !u.Estimated || u.Used != 50 || m.AgentReports() {
		t.Fatalf("after Reset: %+v", u)
	}
}

func TestCountTokens(t *testing.T) {
	if n := CountTokens(""); n != 0 {
		t.Errorf("empty: %d", n)
	}
	// "hello world" is two o200k tokens.
	if n := CountTokens("hello world"); n != 2 {
		t.Errorf("hello world: %d tokens, want 2", n)
	}
}

func TestPipelineDefaults(t *testing.T) {
	p, err := New(Config{CacheDir: t.TempDir()}, nopSender{})
	if err != nil {
		t.Fatal(err)
	}
	if p.OffloadTokens() != DefaultOffloadTokens || p.cfg.ContextSize != DefaultContextSize {
		t.Errorf("defaults: offload %d, context %d", p.OffloadTokens(), p.cfg.ContextSize)
	}
	if _, err := New(Config{}, nopSender{}); err == nil {
		t.Error("New without a cache directory succeeded")
	}
}
