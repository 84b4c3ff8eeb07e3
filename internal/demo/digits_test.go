package demo

import "testing"

func TestGroupDigits(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "0"},
		{999, "999"},
		{1000, "1,000"},
		{257848, "257,848"},
		{-1234567, "-1,234,567"},
	}
	for _, tt := range tests {
		if got := groupDigits(tt.n); got != tt.want {
			t.Errorf("groupDigits(%d) = %q; want %q", tt.n, got, tt.want)
		}
	}
}
