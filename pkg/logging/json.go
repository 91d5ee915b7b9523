package logging

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	"github.com/go-logr/logr"
)

// kubeJSONHandler writes records in the JSON format of Kubernetes' own components
// (k8s.io/component-base/logs/json), so that log pipelines made for them read the
// controller's lines too:
//
//	{"ts":1765054255130.5,"caller":"startup/retry.go:58","msg":"Waiting for a startup dependency","v":0,"dependency":"..."}
//	{"ts":1765054255131.9,"caller":"network-controller/main.go:71","msg":"Exiting","err":"..."}
//
// ts is milliseconds since the epoch; caller is the last directory and the file; an info
// line has its verbosity in v (0 for Info, n for V(n)), an error line has no v but its
// error in err; a logger's name is in logger; durations are text ("1.5s"), and values
// with a String method are written as that, as zap does for Kubernetes.
type kubeJSONHandler struct{ slog.Handler }

func newKubeJSONHandler(w io.Writer, verbosity int) slog.Handler {
	return kubeJSONHandler{slog.NewJSONHandler(w, &slog.HandlerOptions{
		AddSource: true,
		// logr's V(n) is slog's level -n.
		Level:       slog.Level(-verbosity),
		ReplaceAttr: kubeJSONAttr,
	})}
}

// Handle adds v before the record's own values of an info line.
func (h kubeJSONHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelError {
		info := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
		info.AddAttrs(slog.Int("v", max(0, -int(r.Level))))
		r.Attrs(func(a slog.Attr) bool {
			info.AddAttrs(a)
			return true
		})
		r = info
	}
	return h.Handler.Handle(ctx, r)
}

func (h kubeJSONHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return kubeJSONHandler{h.Handler.WithAttrs(attrs)}
}

func (h kubeJSONHandler) WithGroup(name string) slog.Handler {
	return kubeJSONHandler{h.Handler.WithGroup(name)}
}

// kubeJSONAttr renames slog's built-in keys to Kubernetes' and writes values as zap does.
func kubeJSONAttr(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 {
		switch {
		case a.Key == slog.TimeKey && a.Value.Kind() == slog.KindTime:
			return slog.Float64("ts", float64(a.Value.Time().UnixNano())/1e6)
		case a.Key == slog.LevelKey:
			if _, builtin := a.Value.Any().(slog.Level); builtin {
				return slog.Attr{} // v says it
			}
		case a.Key == slog.SourceKey:
			if src, builtin := a.Value.Any().(*slog.Source); builtin {
				if src == nil || src.File == "" {
					return slog.Attr{}
				}
				return slog.String("caller", shortCaller(src.File, src.Line))
			}
		}
	}
	switch a.Value.Kind() {
	case slog.KindDuration:
		return slog.String(a.Key, a.Value.Duration().String())
	case slog.KindAny:
		return slog.Any(a.Key, zapValue(a.Value.Any()))
	}
	return a
}

// zapValue is what zap, under Kubernetes' logr, writes of v: the value its MarshalLog
// returns, an error's text (slog's own), or else the text of its String method.
func zapValue(v any) (out any) {
	defer func() {
		if r := recover(); r != nil {
			out = fmt.Sprintf("<panic: %v>", r)
		}
	}()
	if m, ok := v.(logr.Marshaler); ok {
		return m.MarshalLog()
	}
	if _, isError := v.(error); isError {
		return v
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return v
}

// shortCaller is file:line with only the file's last directory, as zap's short caller.
func shortCaller(file string, line int) string {
	if i := strings.LastIndexByte(file, '/'); i >= 0 {
		if j := strings.LastIndexByte(file[:i], '/'); j >= 0 {
			file = file[j+1:]
		}
	}
	return file + ":" + strconv.Itoa(line)
}
