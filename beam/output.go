package rkhsbeam

import (
	"bufio"
	"context"
	"io"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/internal/outfile"
)

// Outputs — the model, the statistics, the malformed lines, the
// predictions — go to any filesystem Beam knows. A local path (one
// without a scheme such as gs://) is written as rkhs writes its outputs
// (package internal/outfile): a regular file is replaced whole, by a
// temporary file renamed onto it once complete; a symbolic link is written
// through, to the file it points to, and stays a link; a named pipe or a
// device (/dev/null) is written to as it is; "-" and /dev/stdout are the
// standard output of the process that writes them, which is the command's
// only when the pipeline runs in it. Scratch files go the same way.

// local reports whether name is a path of the local filesystem.
func local(name string) bool { return !strings.Contains(name, "://") }

// outputFile is an output being written: Close completes it, Abort gives
// it up after a failure.
type outputFile interface {
	io.Writer
	Close() error
	Abort()
}

// remoteFile is a file of a filesystem with a scheme, written as Beam
// writes it.
type remoteFile struct{ io.WriteCloser }

func (r remoteFile) Abort() { r.Close() }

// createFile opens the output name for writing.
func createFile(ctx context.Context, name string) (outputFile, error) {
	if local(name) {
		return outfile.Create(name, os.Stdout)
	}
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return nil, err
	}
	return remoteFile{w}, nil
}

// writeFile writes data to the output name, whole.
func writeFile(ctx context.Context, name string, data []byte) error {
	if local(name) {
		return outfile.WriteFile(name, data, os.Stdout)
	}
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	return filesystem.Write(ctx, fs, name, data)
}

// writeLines adds to the pipeline of s the writing of col, a PCollection
// of strings, to the output name, one element a line, in no particular
// order: one worker reads every element as a side input and writes them,
// so the file is written, empty, when col is.
func writeLines(s beam.Scope, name string, col beam.PCollection) {
	s = s.Scope("write lines")
	beam.ParDo0(s, &writeLinesFn{Name: name}, beam.Impulse(s), beam.SideInput{Input: col})
}

// writeLinesFn writes the lines of its side input to the file Name, once,
// from the one element of an impulse: the file is written, empty, when
// there is no line (a group by key would have no group, and leave an
// earlier run's file in place).
type writeLinesFn struct{ Name string }

func (f *writeLinesFn) ProcessElement(ctx context.Context, _ []byte, lines func(*string) bool) error {
	out, err := createFile(ctx, f.Name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	var line string
	for lines(&line) {
		if _, err := w.WriteString(line + "\n"); err != nil {
			out.Abort()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		out.Abort()
		return err
	}
	return out.Close()
}

func init() {
	register.DoFn3x1[context.Context, []byte, func(*string) bool, error](&writeLinesFn{})
	register.Iter1[string]()
}
