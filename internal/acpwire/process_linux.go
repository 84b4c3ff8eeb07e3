package acpwire

import "syscall"

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER from <linux/prctl.h>.
const prSetChildSubreaper = 36

func sysProcAttr() *syscall.SysProcAttr {
	// The agent stays in the bridge's process group so an IDE that kills
	// the group kills the agent too; Pdeathsig covers a bridge killed alone.
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// setSubreaper makes orphaned descendants of the agent children of the
// bridge, so they can be found and terminated at shutdown.
func setSubreaper() {
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}

// reap collects the listed processes if they are exited children of the
// bridge, without blocking. It never waits for other children, whose exec.Cmd
// owns their exit status.
func reap(pids []int) {
	for _, p := range pids {
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(p, &ws, syscall.WNOHANG, nil)
	}
}
