package governance

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// repoHooks is what self-protection takes from the configuration of the
// repository at a workspace root: the directory core.hooksPath names (the
// person's next commit runs the scripts there, wherever they are), the
// files the configuration includes (where core.hooksPath and
// core.fsmonitor could be set next), or, when the configuration cannot be
// read strictly, the whole root. It holds while the files it was read from
// are unchanged (stamps). A git directory a .git file or a commondir
// names elsewhere is protected whole, as a .git is.
type repoHooks struct {
	list   []protected
	stamps []fileStamp
}

// fileStamp is what a file was when repoHooks read it: missing, or its
// identity, size and modification time.
type fileStamp struct {
	path string
	fi   os.FileInfo // nil when missing
}

// same reports whether the file at s.path is still what s saw.
func (s fileStamp) same() bool {
	if s.fi == nil {
		// Still missing, as far as os.Stat tells; asked without
		// allocating, as most stamps are of files that are not there.
		return errors.Is(statError(s.path), fs.ErrNotExist)
	}
	fi, err := os.Stat(s.path)
	if err != nil || s.fi == nil {
		return err != nil && s.fi == nil && errors.Is(err, fs.ErrNotExist)
	}
	return os.SameFile(fi, s.fi) && fi.Size() == s.fi.Size() && fi.ModTime().Equal(s.fi.ModTime()) && fi.Mode() == s.fi.Mode()
}

// current reports whether every file h was read from is unchanged.
func (h *repoHooks) current() bool {
	for _, s := range h.stamps {
		if !s.same() {
			return false
		}
	}
	return true
}

// maxIncludeDepth is how deep includes are followed, as git's limit.
const maxIncludeDepth = 10

// hooksOf reads the configuration of the repository a workspace root's
// .git names (a directory, or a file reading "gitdir: X") and returns what
// it protects. A configuration that exists but cannot be read strictly
// protects the root whole: the bridge cannot tell where its hooks are.
func hooksOf(root, home string) *repoHooks {
	h := &repoHooks{}
	if err := h.read(root, home); err != nil {
		h.list = append(h.list, protectedDir(root, "the workspace, since its repository's git configuration, which names the hooks git runs, could not be read: "+err.Error(), false))
	}
	return h
}

func (h *repoHooks) stamp(p string) (os.FileInfo, error) {
	fi, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			h.stamps = append(h.stamps, fileStamp{path: p})
			return nil, nil
		}
		return nil, err
	}
	h.stamps = append(h.stamps, fileStamp{path: p, fi: fi})
	return fi, nil
}

func (h *repoHooks) read(root, home string) error {
	dotgit := root + "/.git"
	fi, err := h.stamp(dotgit)
	if err != nil || fi == nil {
		return err
	}
	gitdir := dotgit
	if !fi.IsDir() {
		b, err := readRegular(dotgit, maxConfigFileBytes)
		if err != nil {
			return fmt.Errorf("reading %s: %v", dotgit, err)
		}
		line, _, _ := strings.Cut(string(b), "\n")
		rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "gitdir: ")
		if !ok || rest == "" {
			return fmt.Errorf("%s does not read gitdir: <path>", dotgit)
		}
		gitdir = joinUnder(root, rest)
		h.list = append(h.list, protectedDir(gitdir, "the git directory the workspace's .git file names, whose configuration and hooks run commands", true))
	}
	configs := []string{gitdir + "/config", gitdir + "/config.worktree"}
	commondir := gitdir + "/commondir"
	if fi, err := h.stamp(commondir); err != nil {
		return err
	} else if fi != nil {
		b, err := readRegular(commondir, maxConfigFileBytes)
		if err != nil {
			return fmt.Errorf("reading %s: %v", commondir, err)
		}
		common := joinUnder(gitdir, strings.TrimRight(string(b), "\r\n"))
		h.list = append(h.list, protectedDir(common, "the git directory the repository's commondir names, whose configuration and hooks run commands", true))
		configs = append(configs, common+"/config")
	}
	for _, c := range configs {
		if err := h.readConfig(c, root, home, 0); err != nil {
			return err
		}
	}
	return nil
}

// readConfig reads one configuration file, and the files it includes
// (include.path, and includeIf.*.path whatever its condition).
func (h *repoHooks) readConfig(p, root, home string, depth int) error {
	if depth > maxIncludeDepth {
		return fmt.Errorf("%s: includes nested deeper than %d", p, maxIncludeDepth)
	}
	fi, err := h.stamp(p)
	if err != nil || fi == nil {
		return err
	}
	b, err := readRegular(p, maxConfigFileBytes)
	if err != nil {
		return fmt.Errorf("reading %s: %v", p, err)
	}
	entries, err := parseGitConfig(string(b))
	if err != nil {
		return fmt.Errorf("%s: %v", p, err)
	}
	for _, en := range entries {
		switch {
		case en.section == "core" && en.sub == "" && en.key == "hookspath" && en.value != "":
			h.list = append(h.list, protectedDir(expandUnder(root, en.value, home), "the git hooks the repository's core.hooksPath names, commands git runs", true))
		case en.key == "path" && (en.section == "include" && en.sub == "" || en.section == "includeif") && en.value != "":
			inc := expandUnder(filepath.Dir(p), en.value, home)
			h.list = append(h.list, protectedDir(inc, "git configuration the repository's configuration includes, whose core.hooksPath and core.fsmonitor run commands", false))
			if err := h.readConfig(inc, root, home, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// joinUnder is p, relative to dir unless absolute, cleaned.
func joinUnder(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// expandUnder is joinUnder with git's "~/" for the home directory.
func expandUnder(dir, p, home string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	return joinUnder(dir, p)
}

// protectedDir is a location self-protection keeps the agent from
// changing, with its symlinks resolved as a form of its own.
func protectedDir(p, what string, dir bool) protected {
	pr := protected{ProtectedPath: ProtectedPath{Path: p, What: what}, forms: []string{p}, dir: dir}
	if r := resolveDir(p); r != p && !strings.Contains(r, "\x00") {
		pr.forms = append(pr.forms, r)
	}
	pr.lower = lowerAll(pr.forms)
	return pr
}

// stale reports whether a cached protectedSet's repository configuration
// has changed since it was read.
func (s *protectedSet) stale() bool {
	for _, h := range s.hooks {
		if !h.current() {
			return true
		}
	}
	return false
}
