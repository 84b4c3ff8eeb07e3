package shellcmd

import "testing"

// TestLocaleCharset: a locale variable set to a locale not known to read
// bytes as the bridge does (C, POSIX, UTF-8), or to a value known only when
// the line runs, and LOCPATH, are a reason; the everyday locales are not.
func TestLocaleCharset(t *testing.T) {
	for _, tt := range []struct {
		name, value string
		static      bool
		want        bool
	}{
		{"LANG", "zh_CN.GBK", true, true},
		{"LC_CTYPE", "zh_TW.BIG5", true, true},
		{"LC_ALL", "ja_JP.SJIS", true, true},
		{"LANG", "zh_CN", true, true},
		{"LANG", "chinese", true, true},
		{"LC_CTYPE", "", false, true},
		{"LOCPATH", "/tmp/loc", true, true},
		{"LANG", "C.UTF-8", true, false},
		{"LANG", "en_US.utf8", true, false},
		{"LC_CTYPE", "de_DE.UTF-8@euro", true, false},
		{"LANG", "C", true, false},
		{"LC_ALL", "POSIX", true, false},
		{"LANG", "", true, false},
		{"LC_MESSAGES", "zh_CN.GBK", true, false},
		{"TZ", "Asia/Shanghai", true, false},
	} {
		if got := LocaleCharset(tt.name, tt.value, tt.static) != ""; got != tt.want {
			t.Errorf("LocaleCharset(%s=%q, static %v) = %v; want %v", tt.name, tt.value, tt.static, got, tt.want)
		}
	}
}
