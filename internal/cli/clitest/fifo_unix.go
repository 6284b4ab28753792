//go:build unix

package clitest

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func init() {
	Cases = append(Cases, OutputCase{Name: "a named pipe", Unix: true, Path: func(t *testing.T, env Env) (string, Outcome, func(*testing.T, []byte)) {
		fifo := filepath.Join(env.Dir, "pipe.out")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Skip("no named pipes here:", err)
		}
		got := make(chan []byte, 1)
		go func() { // the reader the command writes to
			f, err := os.Open(fifo)
			if err != nil {
				got <- nil
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			got <- b
		}()
		return fifo, Written, func(t *testing.T, _ []byte) {
			if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
				t.Errorf("%s is no longer a named pipe (%v)", fifo, err)
			}
			select {
			case b := <-got:
				if len(b) == 0 {
					t.Errorf("the pipe's reader got nothing")
				}
			case <-time.After(10 * time.Second):
				t.Errorf("nothing was written to the pipe in 10 s")
			}
		}
	}})
}
