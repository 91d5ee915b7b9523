//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// jsonLogProblems returns the lines of log that are not one JSON object each in the
// format of Kubernetes' components: ts (milliseconds since the epoch), caller (file:line)
// and msg; an info line's verbosity in v, a whole number, and none on an error line,
// which has its error, if any, in err; none of slog's own time, level or source.
func jsonLogProblems(log string) (lines int, problems []string) {
	for i, line := range strings.Split(log, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		lines++
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			problems = append(problems, fmt.Sprintf("line %d is not JSON (%v): %s", i+1, err, line))
			continue
		}
		if ts, ok := obj["ts"].(float64); !ok || ts < 1e12 {
			problems = append(problems, fmt.Sprintf("line %d has no ts in milliseconds since the epoch: %s", i+1, line))
		}
		if caller, _ := obj["caller"].(string); !goCaller.MatchString(caller) {
			problems = append(problems, fmt.Sprintf("line %d has no caller file.go:line: %s", i+1, line))
		}
		if _, ok := obj["msg"].(string); !ok {
			problems = append(problems, fmt.Sprintf("line %d has no msg: %s", i+1, line))
		}
		if v, ok := obj["v"]; ok {
			if n, isNumber := v.(float64); !isNumber || n < 0 || n != float64(int(n)) {
				problems = append(problems, fmt.Sprintf("line %d has v %v, want a verbosity 0, 1, ...: %s", i+1, v, line))
			}
		}
		for _, k := range []string{"time", "level", "source"} {
			if _, ok := obj[k]; ok {
				problems = append(problems, fmt.Sprintf("line %d has slog's key %q: %s", i+1, k, line))
			}
		}
	}
	return lines, problems
}

var goCaller = regexp.MustCompile(`\.go:\d+$`)

// jsonLogHas reports whether some JSON log line has msg and, for each key=value pair in
// kv, that value (compared as text).
func jsonLogHas(log, msg string, kv ...string) bool {
next:
	for _, line := range strings.Split(log, "\n") {
		var obj map[string]any
		if json.Unmarshal([]byte(line), &obj) != nil || obj["msg"] != msg {
			continue
		}
		for _, pair := range kv {
			if k, v, _ := strings.Cut(pair, "="); fmt.Sprint(obj[k]) != v {
				continue next
			}
		}
		return true
	}
	return false
}
