# Prints, for each test that failed in a `go test -v` output, the last lines its own
# t.Log/t.Error calls wrote (not the logs it dumped): the reason is then at the end of a
# long output, where a truncated CI log still shows it.
# Usage: awk -f hack/lib/e2e-failures.awk go-test-output.log
function top(name) { sub(/\/.*/, "", name); return name }
/^=== (RUN|CONT|NAME|PAUSE) / { current = top($3); next }
/^ *--- FAIL: / { failed[top($3)] = 1; next }
/^ *--- (PASS|SKIP): / { next }
/^    [A-Za-z0-9_]+\.go:[0-9]+: / && current != "" {
  line = substr($0, 5, 300)
  n = ++count[current]
  kept[current, n] = line
}
END {
  for (name in failed) {
    print "--- " name " failed; its last lines:"
    first = count[name] > 25 ? count[name] - 24 : 1
    for (i = first; i <= count[name]; i++) print "    " kept[name, i]
  }
}
