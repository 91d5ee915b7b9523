package registry

import (
	"errors"
	"fmt"
)

// Error is a problem with a Network's credentials, with the Ready reason it gets. Its
// message names the Secret and key but never a value from them.
type Error struct {
	Reason  string
	Message string
	// Transient is set when waiting can cure it (Keystone not answering); otherwise only
	// a change of the Secret or of the spec can.
	Transient bool
	// Err is the cause, for logs; its text has no secret either.
	Err error
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// Terminal reports whether only a change of the Secret or of the spec can cure it.
func (e *Error) Terminal() bool { return !e.Transient }

func errorf(reason, format string, args ...any) *Error {
	return &Error{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// AsError returns err's *Error, if it has one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
