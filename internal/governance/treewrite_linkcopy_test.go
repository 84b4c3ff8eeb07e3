package governance

import "testing"

// TestDecideTreeLinkCopies checks that a recursive cp in a link mode (-l,
// -s, --link, --symbolic-link, or a prefix getopt_long takes for them) is
// decided as the tree copy it is: each link it puts beneath the
// destination replaces (with -f or --remove-destination) or makes the
// file there, and one landing on a protected file is refused; a link copy
// of a tree that puts nothing on a protected file runs.
func TestDecideTreeLinkCopies(t *testing.T) {
	e, root, _ := treeWriteWorkspace(t)
	tests := []lineDecision{
		{"cp -rlf into the parent of the directory", "cp -rlf evil/keys .", Deny, "keys/a.key"},
		{"cp -al --remove-destination", "cp -al --remove-destination evil/keys .", Deny, "keys/a.key"},
		{"cp -Rsf of an absolute source", "cp -Rsf " + root + "/evil/keys .", Deny, "keys/a.key"},
		{"cp -rlft", "cp -rlft . evil/keys", Deny, "keys/a.key"},
		{"cp -rlf of a source with a slash", "cp -rlf evil/keys/ .", Deny, "keys/a.key"},
		{"cp -rlf --backup", "cp -rlf --backup evil/keys .", Deny, "keys/a.key"},
		{"cp -r --link -f", "cp -r --link -f evil/keys .", Deny, "keys/a.key"},
		{"cp -r --symbolic-link -f", "cp -r --symbolic-link -f " + root + "/evil/keys .", Deny, "keys/a.key"},
		{"cp -r --li abbreviated", "cp -r --li -f evil/keys .", Deny, "keys/a.key"},
		{"cp -r --sym abbreviated", "cp -r --sym -f " + root + "/evil/keys .", Deny, "keys/a.key"},
		{"cp --recursive --link spelled out", "cp --recursive --link --force evil/keys .", Deny, "keys/a.key"},
		{"cp -rl of a directory's content", "cp -rl src2/. keys", Deny, "keys/b.key"},
		{"cp -rlT merges into the directory", "cp -rlT evil/keys keys", Deny, "keys/a.key"},
		{"cp -rl --target-directory=", "cp -rl --target-directory=. evil/keys", Deny, "keys/a.key"},
		{"cp -rs into a destination whose subdirectory leads to keys", "cp -rs " + root + "/evil/. d2", Deny, "keys/a.key"},
		{"cp -dRl", "cp -dRl evil/keys .", Deny, "keys/a.key"},
		{"cp -rl --parents keeps the path", "cd evil && cp -rl --parents keys ..", Deny, "keys/a.key"},
		{"cp -lr of a link to the directory's source, followed", "cp -lrL evil2/keys .", Deny, "keys/a.key"},
		{"cp -al into a destination named by a wrapper", "timeout 5 cp -al evil/keys .", Deny, "keys/a.key"},

		{"cp -al backup of a directory without keys", "cp -al src bak", Allow, ""},
		{"cp -rl of a directory below the directory", "cp -rl src2 keys", Allow, ""},
		{"cp -rs of an absolute source elsewhere", "cp -rs " + root + "/src s3", Allow, ""},
		{"cp -al of the key directory to a new place", "cp -al evil/keys newkeys", Allow, ""},
		{"cp -sr into a new directory", "cp -sr " + root + "/stage st", Allow, ""},
	}
	checkLineDecisions(t, e, root, tests)
}
