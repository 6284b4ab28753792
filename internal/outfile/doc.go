// Package outfile writes the output files of the commands and of package
// rkhs/beam alike, so that a path means the same output wherever it is
// given:
//
//   - a path that names one of the process's own open descriptors ("-",
//     /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N,
//     /proc/thread-self/fd/N, the /proc/PID/... names they resolve to, or
//     a link to any of them: Descriptor) is written to that descriptor,
//     after what the process wrote there already, never reopened —
//     following /proc/self/fd/1 to the file a shell redirected standard
//     output to and renaming a new file over it would lose the rest of
//     the report, and a pipe has no path to reopen;
//   - a named pipe or a character device is written to as it is;
//   - a regular file (or none yet) is written to a temporary file beside
//     it, with mode 0666 less the umask as a shell redirection would,
//     renamed onto it once complete — onto the file a symbolic link points
//     to, so that the link stays — so that the file is its old self until
//     the output succeeds (Create, WriteFile).
//
// Check and CheckDir say, before any long computation, whether a path can
// be an output file or an output directory; Same whether two paths are
// one file. Their errors give the reason alone, for the caller to prefix
// with the flag and the path.
package outfile
