package accp

import (
	"testing"
	"time"
)

// TestStoreForget checks that Forget removes every key of one session, in
// every tier, and its grants, and nothing of another session.
func TestStoreForget(t *testing.T) {
	now := time.Unix(1700000000, 0)
	st := NewStore()
	for _, s := range []string{"gone", "kept"} {
		st.Put(s, Hot, "k", String(s), 0, now)
		st.Put(s, Cold, "k", String(s), 0, now)
	}
	st.Grant("gone", "kept")
	st.Grant("kept", "gone")
	st.Forget("gone")
	for _, tier := range []Tier{Hot, Cold} {
		if _, err := st.Get("gone", tier, "k", now); err == nil {
			t.Errorf("tier %v: the forgotten session's key is still kept", tier)
		}
		if v, err := st.Get("kept", tier, "k", now); err != nil || v.Str != "kept" {
			t.Errorf("tier %v: the other session's key = %v, %v", tier, v, err)
		}
	}
	if len(st.grants) != 0 {
		t.Errorf("grants from and to the forgotten session remain: %v", st.grants)
	}
}
