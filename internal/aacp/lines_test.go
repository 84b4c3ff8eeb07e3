package aacp

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestScanLines(t *testing.T) {
	long := "FETCH|HR|res:" + strings.Repeat("x", MaxPacketBytes+100)
	in := "# comment\r\n\nFETCH|HR|return:a|aacp:1.1\r\n   \n" + long + "\nLAST|X|return:b|aacp:1.1"
	var got []Line
	err := ScanLines(strings.NewReader(in), func(l Line) error {
		got = append(got, l)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("got %d lines, want 3: %v", len(got), got)
	}
	if got[0] != (Line{3, "FETCH|HR|return:a|aacp:1.1"}) || got[2] != (Line{6, "LAST|X|return:b|aacp:1.1"}) {
		t.Errorf("lines = %+v, %+v", got[0], got[2])
	}
	if got[1].Num != 5 || len(got[1].Text) != MaxPacketBytes+1 || !strings.HasPrefix(long, got[1].Text) {
		t.Errorf("long line: num %d, %d bytes, want 5 and %d bytes", got[1].Num, len(got[1].Text), MaxPacketBytes+1)
	}
	if _, ds := Parse(got[1].Text); !reflect.DeepEqual(diagsOf(ds), []diag{{CodeTooLarge, "", 1}}) {
		t.Errorf("long line diagnostics: %v", ds)
	}
}

func TestScanLinesStops(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := ScanLines(strings.NewReader("A|B\nC|D\n"), func(Line) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("ScanLines = %v after %d calls, want stop after 1", err, n)
	}
}
