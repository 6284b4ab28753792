package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// File is an output that Create opened: written to, then closed by Close
// (which puts a regular file in place) or, after a failure, by Abort.
type File struct {
	path   string    // as the user gave it, for errors
	w      io.Writer // where Write goes
	f      *os.File  // the file to close: nil for a descriptor of the process
	target string    // the file the temporary file f is renamed onto; "" for none
}

// Create opens the output path for writing, as Check checked it, for an
// output written in parts or whole (WriteFile): descriptor 1 is stdout,
// another descriptor of the process is written as it is open, both left
// open by Close; a named pipe or a character device is opened as it is;
// a regular file (or none yet) is a temporary file beside it that Close
// renames onto it (the package's doc). Errors are *fs.PathError naming
// the path given.
func Create(path string, stdout io.Writer) (*File, error) {
	kind, target, err := kindOf(path)
	if err != nil {
		return nil, &fs.PathError{Op: "write", Path: path, Err: err}
	}
	o := &File{path: path}
	switch kind {
	case toStdout:
		o.w = stdout
		return o, nil
	case toDescriptor:
		fd, _ := Descriptor(path)
		f, err := descriptorFile(fd)
		if err != nil {
			return nil, &fs.PathError{Op: "write", Path: path, Err: err}
		}
		o.w = f
		return o, nil
	case toStream:
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, &fs.PathError{Op: "write", Path: path, Err: unwrapPath(err)}
		}
		o.w, o.f = f, f
		return o, nil
	}
	f, err := createTemp(target)
	if err != nil {
		return nil, &fs.PathError{Op: "write", Path: path, Err: unwrapPath(err)}
	}
	o.w, o.f, o.target = f, f, target
	return o, nil
}

// Write writes p; an error names the path.
func (o *File) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil {
		err = &fs.PathError{Op: "write", Path: o.path, Err: unwrapPath(err)}
	}
	return n, err
}

// Close finishes the output: it closes a file or a stream and renames a
// temporary file onto the regular file it stands for (removing it if that
// fails). A descriptor of the process (standard output, /dev/stderr) is
// left open.
func (o *File) Close() error {
	if o.f == nil {
		return nil
	}
	err := o.f.Close()
	if err == nil && o.target != "" {
		err = os.Rename(o.f.Name(), o.target)
	}
	if err != nil {
		o.Abort()
		return &fs.PathError{Op: "write", Path: o.path, Err: unwrapPath(err)}
	}
	return nil
}

// Abort ends an output whose writing failed: a regular file keeps its old
// content (its temporary file is removed); a stream is closed.
func (o *File) Abort() {
	if o.f == nil {
		return
	}
	o.f.Close()
	if o.target != "" {
		os.Remove(o.f.Name())
	}
}

// WriteFile writes data to the output path whole, as Create opens it: a
// regular file is replaced only once all of data is written.
func WriteFile(path string, data []byte, stdout io.Writer) error {
	w, err := Create(path, stdout)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

// createTemp creates a new file beside path, named after it, with mode
// 0666 less the umask.
func createTemp(path string) (*os.File, error) {
	dir, base := filepath.Split(path)
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".%s.rkhs-%d", base, rand.Uint32()))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "create", Path: path, Err: unwrapPath(err)}
		}
		return f, nil
	}
	return nil, &fs.PathError{Op: "create", Path: path, Err: fs.ErrExist}
}

// unwrapPath returns the error a *fs.PathError or *os.LinkError wraps, so
// that a message names the user's path once, or err.
func unwrapPath(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}
