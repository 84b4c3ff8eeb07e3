//go:build !linux

package acpwire

import "syscall"

func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

func setSubreaper() {}

func reap([]int) {}
