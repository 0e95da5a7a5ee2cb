package safeio

import (
	"errors"
	"io/fs"
	"syscall"

	"simctl/sim/msg"
)

// OSError is err (an error of the operating system: an *fs.PathError, a
// syscall.Errno) printing as it does in English, and translated where
// simctl knows the cause: a file that does not exist, a permission
// refused, a directory where a file was expected, a full or read-only
// disk. Another cause stays English inside the translated message.
func OSError(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(msg.Localizer); ok {
		return err
	}
	return osError{err}
}

type osError struct{ err error }

func (e osError) Error() string { return e.err.Error() }
func (e osError) Unwrap() error { return e.err }

// Localize says the cause in tr's language; a path error keeps its path
// (its operation, "open", is the system call's English name: left out).
func (e osError) Localize(tr msg.Translator) string {
	if tr == nil {
		return e.err.Error()
	}
	var pe *fs.PathError
	if errors.As(e.err, &pe) {
		return msg.New("%s: %v", pe.Path, osCause(pe.Err)).Localize(tr)
	}
	return msg.Arg(osCause(e.err), tr).(string)
}

// osCause is a cause simctl translates, else err.
func osCause(err error) any {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return msg.New("no such file or directory")
	case errors.Is(err, fs.ErrPermission):
		return msg.New("permission denied")
	case errors.Is(err, syscall.EISDIR):
		return msg.New("is a directory")
	case errors.Is(err, syscall.ENOTDIR):
		return msg.New("not a directory")
	case errors.Is(err, syscall.ENOSPC):
		return msg.New("no space left on device")
	case errors.Is(err, syscall.EROFS):
		return msg.New("read-only file system")
	}
	return err.Error()
}
