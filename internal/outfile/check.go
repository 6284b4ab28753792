package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// kind is what an output path is.
type kind int

const (
	toStdout     kind = iota // descriptor 1: the process's standard output
	toDescriptor             // another open descriptor of the process: written to
	toFile                   // a regular file, or none yet: replaced whole by a rename
	toStream                 // a named pipe or a character device (/dev/null, a terminal): written to
)

// kindOf returns what path is, following symbolic links, and the path a
// file output is renamed onto: path itself, or the file a link (or a chain
// of links) points to. A path that names a descriptor of the process is
// that descriptor, whatever it is open on. A directory, a socket or
// another special file is refused, and so is standard input or a
// descriptor that is not open.
func kindOf(path string) (kind, string, error) {
	switch fd, ok := Descriptor(path); {
	case !ok:
	case fd == 0:
		return 0, "", errors.New("is standard input, not an output")
	case fd == 1:
		return toStdout, path, nil
	default:
		if _, err := descriptorFile(fd); err != nil {
			return 0, "", fmt.Errorf("descriptor %d of this process is not open for writing: %v", fd, err)
		}
		return toDescriptor, path, nil
	}
	target, err := linkTarget(path)
	if err != nil {
		return 0, "", err
	}
	st, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return toFile, target, nil
	case err != nil:
		return 0, "", unwrapPath(err)
	case st.IsDir():
		return 0, "", errors.New("is a directory: give a file name")
	case st.Mode().IsRegular():
		return toFile, target, nil
	case st.Mode()&(fs.ModeNamedPipe|fs.ModeCharDevice) != 0:
		return toStream, path, nil
	}
	return 0, "", fmt.Errorf("is a %s, not a file, a named pipe or a character device", modeName(st.Mode()))
}

// linkTarget follows path through symbolic links, however many, to the
// path they end at, which need not exist (a dangling link is written
// through to the file it names). A path that is no link is returned as
// it is.
func linkTarget(path string) (string, error) {
	for range 40 {
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", unwrapPath(err)
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", errors.New("too many levels of symbolic links")
}

// modeName names a file type for a message.
func modeName(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return "special file"
}

// Check reports whether path can be an output: an open descriptor of the
// process other than standard input, a named pipe or a character device,
// or a regular file — existing or not, possibly through a symbolic link
// — whose directory exists and accepts a new file (tried, and nothing
// left behind). The error is the reason alone.
func Check(path string) error {
	kind, target, err := kindOf(path)
	if err != nil || kind != toFile {
		return err
	}
	dir := filepath.Dir(target)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("the directory %s does not exist", dir)
	}
	f, err := createTemp(target)
	if err != nil {
		return fmt.Errorf("cannot be written: %v", unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// Same reports whether two paths name one file: the same descriptor of
// the process ("-" and /dev/fd/1 are one), a descriptor and the file it
// is open on, the same absolute path once links are followed, or files
// that exist and are the same (os.SameFile: hard links, other
// spellings). An empty path is no file.
func Same(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	fa, okA := Descriptor(a)
	fb, okB := Descriptor(b)
	switch {
	case okA && okB:
		return fa == fb
	case okA || okB:
		fd, other := fa, b
		if okB {
			fd, other = fb, a
		}
		f, err := descriptorFile(fd)
		if err != nil {
			return false
		}
		sf, errF := f.Stat()
		so, errO := os.Stat(other)
		return errF == nil && errO == nil && os.SameFile(sf, so)
	}
	ta, errA := linkTarget(a)
	tb, errB := linkTarget(b)
	if errA == nil && errB == nil {
		pa, errA := filepath.Abs(ta)
		pb, errB := filepath.Abs(tb)
		if errA == nil && errB == nil && pa == pb {
			return true
		}
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// CheckDir reports whether path can be an output directory, into which
// files are written: an existing directory, possibly through a link, or a
// path that does not exist yet below an existing directory (os.MkdirAll
// makes it then). A file that is not a directory at path, or at the
// nearest of its parents that exists, is refused. The error is the reason
// alone.
func CheckDir(path string) error {
	for p := path; ; {
		st, err := os.Stat(p)
		switch {
		case err == nil && st.IsDir():
			return nil
		case err == nil && p == path:
			return fmt.Errorf("is a %s, not a directory", modeName(st.Mode()))
		case err == nil:
			return fmt.Errorf("%s is a %s, not a directory", p, modeName(st.Mode()))
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			// ENOTDIR: a file above p (WASI says so where Linux says
			// not found); the walk up names it.
			return unwrapPath(err)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		p = parent
	}
}
