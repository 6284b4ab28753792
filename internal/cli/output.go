package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
)

// Output is an output flag of a command and the path it was given ("" for
// none).
type Output struct{ Flag, Path string }

// Input is an input flag of a command, its value and the files it reads:
// Paths nil for the one file Value names, or every file its globs match.
type Input struct {
	Flag, Value string
	Paths       []string
}

// Stdout reports whether path names standard output ("-", /dev/stdout,
// /dev/fd/1, /proc/self/fd/1 or a link to one of them: Descriptor), which
// is written to the command's own standard output rather than reopened
// (reopening it would truncate a file standard output is redirected to,
// or replace the link).
func Stdout(path string) bool {
	fd, ok := Descriptor(path)
	return ok && fd == 1
}

// outputKind is what an output path is when the command checks it.
type outputKind int

const (
	toStdout     outputKind = iota // descriptor 1 ("-", /dev/stdout, /dev/fd/1): the command's standard output
	toDescriptor                   // another open descriptor of the command (/dev/stderr, /dev/fd/N): written to
	toFile                         // a regular file, or none yet: replaced whole by a rename
	toStream                       // a named pipe or a character device (/dev/null, a terminal): written to
)

// kindOf returns what path is, following symbolic links, and the path a
// file output is renamed onto: path itself, or the file a link (or a chain
// of links) points to, so that the link stays a link. A path that names a
// descriptor of the command (Descriptor) is that descriptor, whatever it
// is open on. A path that exists as a directory, a socket or another
// special file is refused, and so is standard input or a descriptor that
// is not open.
func kindOf(flag, path string) (outputKind, string, error) {
	switch fd, ok := Descriptor(path); {
	case !ok:
	case fd == 0:
		return 0, "", BadInputf("-%s %s: is standard input, not an output", flag, path)
	case fd == 1:
		return toStdout, path, nil
	default:
		if _, err := descriptorFile(fd); err != nil {
			return 0, "", BadInputf("-%s %s: descriptor %d of this process is not open for writing: %v", flag, path, fd, err)
		}
		return toDescriptor, path, nil
	}
	target, err := linkTarget(path)
	if err != nil {
		return 0, "", BadInputf("-%s %s: %v", flag, path, err)
	}
	st, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return toFile, target, nil
	case err != nil:
		return 0, "", BadInputf("-%s %s: %v", flag, path, unwrapPath(err))
	case st.IsDir():
		return 0, "", BadInputf("-%s %s: is a directory: give a file name", flag, path)
	case st.Mode().IsRegular():
		return toFile, target, nil
	case st.Mode()&(fs.ModeNamedPipe|fs.ModeCharDevice) != 0:
		return toStream, path, nil
	}
	return 0, "", BadInputf("-%s %s: is a %s, not a file, a named pipe or a character device", flag, path, modeName(st.Mode()))
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
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return "special file"
}

// CheckOutputs makes sure, before any long computation, that every output
// can be written: it is not an input file nor a file an input glob
// matched (the same path, or the same file by another name or link), not
// another output, and it is an open descriptor of the command ("-",
// /dev/stdout, /dev/stderr, /dev/fd/N: Descriptor), a named pipe or a
// character device (written to as they are), or a regular file
// — existing or not, possibly through a symbolic link — whose directory
// exists and accepts a new file (tried, and nothing left behind). Outputs
// with an empty path are not given and not checked. The errors are
// BadInput, naming the flags.
func CheckOutputs(inputs []Input, outputs []Output) error {
	for i, o := range outputs {
		if o.Path == "" {
			continue
		}
		for _, in := range inputs {
			paths := in.Paths
			if paths == nil {
				paths = []string{in.Value}
			}
			for _, p := range paths {
				if sameFile(o.Path, p) {
					what := "-" + in.Flag + " " + p
					if p != in.Value {
						what = fmt.Sprintf("the file %s that -%s %s matches", p, in.Flag, in.Value)
					}
					return BadInputf("-%s %s and %s are the same file: the output would overwrite the input", o.Flag, o.Path, what)
				}
			}
		}
		for _, prev := range outputs[:i] {
			if prev.Path != "" && sameFile(o.Path, prev.Path) {
				return BadInputf("-%s %s and -%s %s are the same file: one would overwrite the other", o.Flag, o.Path, prev.Flag, prev.Path)
			}
		}
		kind, target, err := kindOf(o.Flag, o.Path)
		if err != nil {
			return err
		}
		if kind != toFile {
			continue // written to as it is
		}
		if dir := filepath.Dir(target); !isDir(dir) {
			return BadInputf("-%s %s: the directory %s does not exist", o.Flag, o.Path, dir)
		}
		f, err := createTemp(target)
		if err != nil {
			return BadInputf("-%s %s: cannot be written: %v", o.Flag, o.Path, unwrapPath(err))
		}
		f.Close()
		os.Remove(f.Name())
	}
	return nil
}

// isDir reports whether path is a directory (through links).
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// sameFile reports whether two paths name one file: the same descriptor
// of the command (Descriptor: "-" and /dev/fd/1 are one), a descriptor
// and the file it is open on, the same absolute path once links are
// followed, or files that exist and are the same (os.SameFile: hard
// links, other spellings).
func sameFile(a, b string) bool {
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

// WriteFile writes data to the output path, as CheckOutputs checked it
// and Create opens it: to stdout for descriptor 1 ("-", /dev/stdout,
// /dev/fd/1), to the open descriptor for another (/dev/stderr, /dev/fd/N:
// Descriptor); to a named pipe
// or a character device as it is, in one write; to a regular file (or
// none yet) whole, through a temporary file in its directory renamed onto
// it — onto the file a symbolic link points to, so that the link stays.
// Errors name the path the user gave.
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

// CheckOutputDir makes sure, before any long computation, that path can
// be the directory an output flag names (a command writes its files
// into it): an existing directory, possibly through a link, or a path
// that does not exist yet below an existing directory (os.MkdirAll makes
// it then). A regular file, a named pipe or another file that is not a
// directory at path, or at the nearest of its parents that exists, is
// refused: a BadInput naming the flag.
func CheckOutputDir(flag, path string) error {
	for p := path; ; {
		st, err := os.Stat(p)
		switch {
		case err == nil && st.IsDir():
			return nil
		case err == nil && p == path:
			return BadInputf("-%s %s: is a %s, not a directory", flag, path, fileKind(st.Mode()))
		case err == nil:
			return BadInputf("-%s %s: %s is a %s, not a directory", flag, path, p, fileKind(st.Mode()))
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			// ENOTDIR: a file above p (WASI says so where Linux says
			// not found); the walk up names it.
			return BadInputf("-%s %s: %v", flag, path, unwrapPath(err))
		}
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		p = parent
	}
}

// fileKind names the type of a file that is not a directory.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	}
	return modeName(m)
}
