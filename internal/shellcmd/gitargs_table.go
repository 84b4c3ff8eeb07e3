package shellcmd

import "strings"

// gitSubOptionSpecs are the options of the git subcommands whose options
// the bridge checks, as "git <subcommand> -h" (git 2.39) lists them. Each
// option is a word: its letter (none for a long option alone), "/", its
// long name (none for a letter alone), then "=" when it takes a value (attached,
// after "=", or the next word) or "=?" when it takes only an attached one.
// A long option's prefixes are read by them (ReadGitArgs), so the list is
// whole for each subcommand; "stage" is "add".
var gitSubOptionSpecs = map[string]string{
	"add": "n/dry-run v/verbose i/interactive p/patch e/edit f/force u/update /renormalize N/intent-to-add " +
		"A/all /ignore-removal /refresh /ignore-errors /ignore-missing /sparse /chmod= " +
		"/pathspec-from-file= /pathspec-file-nul",
	"am": "i/interactive 3/3way q/quiet s/signoff u/utf8 k/keep /keep-non-patch m/message-id /keep-cr " +
		"/no-keep-cr c/scissors /quoted-cr= /whitespace= /ignore-space-change /ignore-whitespace " +
		"/directory= /exclude= /include= C/= p/= /patch-format= /reject /resolvemsg= /continue r/resolved " +
		"/skip /abort /quit /show-current-patch=? /allow-empty /committer-date-is-author-date " +
		"/ignore-date /rerere-autoupdate S/gpg-sign=? /empty=",
	"apply": "/exclude= /include= p/= /no-add /stat /numstat /summary /check /index N/intent-to-add /cached " +
		"/unsafe-paths /apply 3/3way /build-fake-ancestor= z/ C/= /whitespace= /ignore-space-change " +
		"/ignore-whitespace R/reverse /unidiff-zero /reject /allow-overlap v/verbose q/quiet " +
		"/inaccurate-eof /recount /directory= /allow-empty",
	"archive": "/format= /prefix= /add-file= /add-virtual-file= o/output= /worktree-attributes v/verbose N/= " +
		"l/list /remote= /exec=",
	"branch": "v/verbose q/quiet t/track=? u/set-upstream-to= /unset-upstream /color=? r/remotes /contains= " +
		"/no-contains= /abbrev=? a/all d/delete D/ m/move M/ c/copy C/ l/list /show-current " +
		"/create-reflog /edit-description f/force /merged= /no-merged= /column=? /sort= /points-at= " +
		"i/ignore-case /recurse-submodules /format=",
	"cat-file": "e/ p/ t/ s/ /allow-unknown-type /use-mailmap /mailmap /batch=? /batch-check=? z/ " +
		"/batch-command=? /batch-all-objects /buffer /follow-symlinks /unordered /textconv /filters " +
		"/path=",
	"checkout": "b/= B/= l/ /guess /overlay q/quiet /recurse-submodules=? /progress m/merge /conflict= d/detach " +
		"t/track=? f/force /orphan= /overwrite-ignore /ignore-other-worktrees 2/ours 3/theirs p/patch " +
		"/ignore-skip-worktree-bits /pathspec-from-file= /pathspec-file-nul",
	"checkout-index": "a/all /ignore-skip-worktree-bits f/force q/quiet n/no-create u/index z/ /stdin /temp /prefix= " +
		"/stage=",
	"clean": "q/quiet n/dry-run f/force i/interactive d/ e/exclude= x/ X/",
	"clone": "v/verbose q/quiet /progress /reject-shallow n/no-checkout /bare /mirror l/local /no-hardlinks " +
		"s/shared /recurse-submodules=? /recursive=? j/jobs= /template= /reference= /reference-if-able= " +
		"/dissociate o/origin= b/branch= u/upload-pack= /depth= /shallow-since= /shallow-exclude= " +
		"/single-branch /no-tags /shallow-submodules /separate-git-dir= c/config= /server-option= 4/ipv4 " +
		"6/ipv6 /filter= /also-filter-submodules /remote-submodules /sparse /bundle-uri=",
	"config": "/global /system /local /worktree f/file= /blob= /get /get-all /get-regexp /get-urlmatch " +
		"/replace-all /add /unset /unset-all /rename-section /remove-section l/list /fixed-value e/edit " +
		"/get-color /get-colorbool t/type= /bool /int /bool-or-int /bool-or-str /path /expiry-date z/null " +
		"/name-only /includes /show-origin /show-scope /default=",
	"grep": "/cached /no-index /untracked /exclude-standard /recurse-submodules v/invert-match i/ignore-case " +
		"w/word-regexp a/text I/ /textconv r/recursive /max-depth= E/extended-regexp G/basic-regexp " +
		"F/fixed-strings P/perl-regexp n/line-number /column h/ H/ /full-name l/files-with-matches " +
		"/name-only L/files-without-match z/null o/only-matching c/count /color=? /break /heading " +
		"C/context= B/before-context= A/after-context= /threads= N/= p/show-function W/function-context " +
		"f/= e/= /and /or /not q/quiet /all-match O/open-files-in-pager=? /ext-grep m/max-count=",
	"hash-object": "t/= w/ /stdin /stdin-paths /no-filters /literally /path=",
	"init":        "/template= /bare /shared=? q/quiet /separate-git-dir= b/initial-branch= /object-format=",
	"merge-file":  "p/stdout /diff3 /zdiff3 /ours /theirs /union /marker-size= q/quiet L/=",
	"mv":          "v/verbose n/dry-run f/force k/ /sparse",
	"push": "v/verbose q/quiet /repo= /all /mirror d/delete /tags n/dry-run /porcelain f/force " +
		"/force-with-lease=? /force-if-includes /recurse-submodules= /thin /receive-pack= /exec= u/set-upstream " +
		"/progress /prune /no-verify /follow-tags /signed=? /atomic o/push-option= 4/ipv4 6/ipv6",
	"read-tree": "/index-output= /empty v/verbose m/ /trivial /aggressive /reset /prefix= u/ " +
		"/exclude-per-directory= i/ n/dry-run /no-sparse-checkout /debug-unpack /recurse-submodules=? " +
		"q/quiet",
	"reset": "q/quiet /no-refresh /mixed /soft /hard /merge /keep /recurse-submodules=? p/patch " +
		"N/intent-to-add /pathspec-from-file= /pathspec-file-nul",
	"restore": "s/source= S/staged W/worktree /ignore-unmerged /overlay q/quiet /recurse-submodules=? /progress " +
		"m/merge /conflict= 2/ours 3/theirs p/patch /ignore-skip-worktree-bits /pathspec-from-file= " +
		"/pathspec-file-nul",
	"rm": "n/dry-run q/quiet /cached f/force r/ /ignore-unmatch /sparse /pathspec-from-file= " +
		"/pathspec-file-nul",
	"stash push": "k/keep-index S/staged p/patch q/quiet u/include-untracked a/all m/message= /pathspec-from-file= " +
		"/pathspec-file-nul",
	"switch": "c/create= C/force-create= /guess /discard-changes q/quiet /recurse-submodules=? /progress " +
		"m/merge /conflict= d/detach t/track=? f/force /orphan= /overwrite-ignore /ignore-other-worktrees",
	"update-index": "q/ /ignore-submodules /add /replace /remove /unmerged /refresh /really-refresh /cacheinfo= " +
		"/chmod= /assume-unchanged /no-assume-unchanged /skip-worktree /no-skip-worktree " +
		"/ignore-skip-worktree-entries /info-only /force-remove z/ /stdin /index-info /unresolve g/again " +
		"/ignore-missing /verbose /clear-resolve-undo /index-version= /split-index /untracked-cache " +
		"/test-untracked-cache /force-untracked-cache /force-write-index /fsmonitor /fsmonitor-valid " +
		"/no-fsmonitor-valid",
}

// gitSubOptions are gitSubOptionSpecs read into options; "stage" is "add".
var gitSubOptions = func() map[string][]gitOption {
	out := parseOptionSpecs(gitSubOptionSpecs)
	out["stage"] = out["add"]
	return out
}()

// parseOptionSpecs reads each program's or subcommand's option words
// (see gitSubOptionSpecs).
func parseOptionSpecs(specs map[string]string) map[string][]gitOption {
	out := make(map[string][]gitOption, len(specs)+1)
	for sub, spec := range specs {
		for _, w := range strings.Fields(spec) {
			letter, long, ok := strings.Cut(w, "/")
			if !ok || len(letter) > 1 {
				panic("option spec " + sub + ": " + w)
			}
			o := gitOption{long: long}
			if letter != "" {
				o.short = letter[0]
			}
			switch {
			case strings.HasSuffix(long, "=?"):
				o.long, o.takes = strings.TrimSuffix(long, "=?"), optValue
			case strings.HasSuffix(long, "="):
				o.long, o.takes = strings.TrimSuffix(long, "="), takesValue
			}
			out[sub] = append(out[sub], o)
		}
	}
	return out
}
