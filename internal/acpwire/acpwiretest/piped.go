package acpwiretest

import (
	"io"
	"os/exec"
)

// StartPiped starts cmd, whose stdin and stdout must not be set, with a
// pipe to each, and returns the end the caller writes to cmd's stdin and
// the end it reads cmd's stdout from.
func StartPiped(cmd *exec.Cmd) (stdin io.WriteCloser, stdout io.ReadCloser, err error) {
	if stdin, err = cmd.StdinPipe(); err != nil {
		return nil, nil, err
	}
	if stdout, err = cmd.StdoutPipe(); err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return stdin, stdout, nil
}
