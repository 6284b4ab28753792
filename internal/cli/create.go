package cli

import (
	"io"
	"io/fs"
	"os"
)

// OutputFile is an output that Create opened: written to, then closed by
// Close (which puts a regular file in place) or, after a failure, by
// Abort.
type OutputFile struct {
	path   string    // as the user gave it, for errors
	w      io.Writer // where Write goes
	f      *os.File  // the file to close: nil for a descriptor of the command
	target string    // the file the temporary file f is renamed onto; "" for none
}

// Create opens the output path for writing as CheckOutputs checked it, for
// an output written in parts (predictions, malformed lines) or whole
// (WriteFile): descriptor 1 ("-", /dev/stdout, /dev/fd/1) is stdout, and
// another descriptor of the command (/dev/stderr, /dev/fd/N: Descriptor)
// is written as it is open, both left open by Close; a named pipe or a character device is opened and written as it is; a
// regular file (or none yet) is written to a temporary file beside it,
// with mode 0666 less the umask as a shell redirection would, that Close
// renames onto it — onto the file a symbolic link points to, so that the
// link stays — so that the file is its old self until Close succeeds.
// Errors name the path the user gave.
func Create(path string, stdout io.Writer) (*OutputFile, error) {
	kind, target, err := kindOf("", path)
	if err != nil {
		return nil, &fs.PathError{Op: "write", Path: path, Err: err}
	}
	o := &OutputFile{path: path}
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
func (o *OutputFile) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil {
		err = &fs.PathError{Op: "write", Path: o.path, Err: unwrapPath(err)}
	}
	return n, err
}

// Close finishes the output: it closes a file or a stream and renames a
// temporary file onto the regular file it stands for (removing it if that
// fails). A descriptor of the command (standard output, /dev/stderr) is
// left open.
func (o *OutputFile) Close() error {
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
func (o *OutputFile) Abort() {
	if o.f == nil {
		return
	}
	o.f.Close()
	if o.target != "" {
		os.Remove(o.f.Name())
	}
}
