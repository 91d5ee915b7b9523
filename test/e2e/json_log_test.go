//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
)

// jsonLogProblems returns the lines of log that are not one JSON object each with time,
// level and msg, as slog's JSON handler writes them.
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
		for _, k := range []string{"time", "level", "msg"} {
			if _, ok := obj[k]; !ok {
				problems = append(problems, fmt.Sprintf("line %d has no %q: %s", i+1, k, line))
			}
		}
	}
	return lines, problems
}

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
