//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// detach makes cmd a session of its own: no signal meant for this
// process's group (a harness killing its hook) reaches it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
