//go:build !unix

package clitest

import "errors"

// Mkfifo makes a named pipe at path, where the system has them: not here.
func Mkfifo(path string) error { return errors.New("no named pipes on this system") }
