//go:build unix

package clitest

import "syscall"

// Mkfifo makes a named pipe at path, where the system has them.
func Mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
