package outfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Descriptor returns the descriptor of this process that an output path
// names, and true: 1 for "-" and /dev/stdout, 2 for /dev/stderr, 0 for
// /dev/stdin, N for /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N,
// /proc/PID/fd/N and /proc/PID/task/TID/fd/N with this process's PID,
// whether given as such, reached through symbolic links or through a
// link to their directory. Any other path gives -1 and false. It reads
// the links of the path, never the descriptor.
func Descriptor(path string) (int, bool) {
	if path == "-" {
		return 1, true
	}
	for range 40 {
		if fd, ok := descriptorName(path); ok {
			return fd, true
		}
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return -1, false
		}
		to, err := os.Readlink(path)
		if err != nil {
			return -1, false
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return -1, false
}

// Stdout reports whether path names standard output (Descriptor 1).
func Stdout(path string) bool {
	fd, ok := Descriptor(path)
	return ok && fd == 1
}

// descriptorName reports whether path, made absolute and with its
// directory's links followed, is one of the names of Descriptor, and
// which descriptor it names.
func descriptorName(path string) (int, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return -1, false
	}
	abs = filepath.ToSlash(abs)
	switch abs {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	dir, base := filepath.Split(abs)
	fd, err := strconv.Atoi(base)
	if err != nil || fd < 0 || strconv.Itoa(fd) != base {
		return -1, false
	}
	dir = filepath.Clean(dir)
	if ownDescriptors(filepath.ToSlash(dir)) {
		return fd, true
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil && ownDescriptors(filepath.ToSlash(real)) {
		return fd, true
	}
	return -1, false
}

// ownDescriptors reports whether dir is a directory of this process's
// descriptors: /dev/fd, /proc/self/fd, /proc/thread-self/fd, /proc/PID/fd
// or /proc/PID/task/TID/fd for this PID.
func ownDescriptors(dir string) bool {
	switch dir {
	case "/dev/fd", "/proc/self/fd", "/proc/thread-self/fd":
		return true
	}
	rest, ok := strings.CutPrefix(dir, "/proc/"+strconv.Itoa(os.Getpid())+"/")
	if !ok {
		return false
	}
	if rest == "fd" {
		return true
	}
	tid, ok := strings.CutPrefix(rest, "task/")
	tid, fd := strings.CutSuffix(tid, "/fd")
	_, err := strconv.ParseUint(tid, 10, 64)
	return ok && fd && err == nil
}

// descriptors are the *os.File values made for descriptors other than 0,
// 1 and 2, kept so that no finalizer closes them.
var descriptors struct {
	sync.Mutex
	files map[int]*os.File
}

// descriptorFile returns this process's open descriptor fd as an
// *os.File, which is never to be closed, or an error if it is not open.
func descriptorFile(fd int) (*os.File, error) {
	var f *os.File
	switch fd {
	case 0:
		f = os.Stdin
	case 1:
		f = os.Stdout
	case 2:
		f = os.Stderr
	default:
		descriptors.Lock()
		if f = descriptors.files[fd]; f == nil {
			f = os.NewFile(uintptr(fd), "/dev/fd/"+strconv.Itoa(fd))
			if descriptors.files == nil {
				descriptors.files = map[int]*os.File{}
			}
			descriptors.files[fd] = f
		}
		descriptors.Unlock()
	}
	if f == nil {
		return nil, fs.ErrInvalid
	}
	if _, err := f.Stat(); err != nil {
		return nil, unwrapPath(err)
	}
	return f, nil
}
