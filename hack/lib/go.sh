# Sourced by the hack/ scripts that run go: GO is the go command, Go's default install
# location when go is not on PATH (a root shell without /usr/local/go/bin in PATH).
GO=go
if ! command -v go >/dev/null 2>&1 && [[ -x /usr/local/go/bin/go ]]; then
  GO=/usr/local/go/bin/go
fi
