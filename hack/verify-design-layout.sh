#!/usr/bin/env bash
# Fails when the Layout section of docs/design.md (from "## Layout" to the next "## "
# heading) no longer matches the tree:
#   - every directory under pkg/ with a hand-written non-test .go file (pkg/client/ and
#     zz_generated* files left out) must have a line of its own in the Layout block, as
#     "pkg/<dir>/   <what it holds>";
#   - every non-test .go file of the repository root must have a line of its own, as
#     "<file>.go   <what it holds>", and every one of pkg/reconcile/ a line indented by two
#     spaces under the "pkg/reconcile/" line;
#   - every path the section names must exist: each line of the block, each .go file or
#     pkg/... path in the block's descriptions (a bare file name is in the directory of
#     its line), and each `backticked` .go file or pkg/... path of the prose (from the
#     repository root; a bare file name must be in the root or in pkg/reconcile/).
#     A name with * must match at least one file.
# It only reads: nothing is written.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${REPO_ROOT}"
DOC=docs/design.md

if ! grep -q '^## Layout[[:space:]]*$' "${DOC}"; then
    echo "verify-design-layout: ${DOC} has no '## Layout' section" >&2
    exit 1
fi

# The section as records, one a line, fields separated by tabs:
#   entry <path> <line>      a line of the block (nested ones joined to their parent)
#   block <path> <line>      a .go file or pkg/... path in a description of the block
#   prose <name> <line>      a `backticked` .go file or pkg/... path outside the block
records="$(awk '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    function join(dir, name) { return dir == "." ? name : dir "/" name }
    function strip(p) { sub(/\/+$/, "", p); return p }
    # Paths worth checking: a .go file (or glob), or anything under pkg/.
    function pathlike(t) { return t ~ /\.go$/ || t ~ /^pkg\// || t == "pkg" }
    # block tokens of text, relative to dir when they have no slash.
    function blocktokens(text, dir, lineno,    t) {
        while (match(text, /[A-Za-z0-9_.*\/-]+/)) {
            t = substr(text, RSTART, RLENGTH)
            text = substr(text, RSTART + RLENGTH)
            sub(/\.+$/, "", t)
            if (!pathlike(t)) continue
            if (t !~ /\//) t = join(dir, t)
            print "block\t" strip(t) "\t" lineno
        }
    }
    # prose tokens of the paragraph held in para, with the line each stands on.
    function prosetokens(    text, t, i, at) {
        text = para
        while (match(text, /`[^`]*`/)) {
            t = substr(text, RSTART + 1, RLENGTH - 2)
            text = substr(text, RSTART + RLENGTH)
            if (t !~ /^[A-Za-z0-9_.*\/-]+$/ || !pathlike(t)) continue
            at = paranr[1]
            for (i = 1; i <= nlines; i++) {
                if (index(paraline[i], "`" t "`")) { at = paranr[i]; break }
            }
            print "prose\t" strip(t) "\t" at
        }
        para = ""; nlines = 0
    }
    /^## Layout[ \t]*$/ { inside = 1; next }
    inside && /^## / { exit }
    !inside { next }
    /^```/ {
        if (fence) { fence = 0 } else { fence = 1; prosetokens() }
        next
    }
    !fence {
        if ($0 ~ /^[ \t]*$/) { prosetokens(); next }
        para = para " " $0; nlines++; paraline[nlines] = $0; paranr[nlines] = NR
        next
    }
    # In the block: a line at column 0 is an entry, one indented by exactly two spaces an
    # entry under the last top-level directory, anything deeper a description going on.
    /^[^ \t]/ {
        name = $1
        entry = strip(name)
        print "entry\t" entry "\t" NR
        top = (name ~ /\/$/) ? entry : "."
        dir = top
        blocktokens(substr($0, length(name) + 1), dir, NR)
        next
    }
    /^  [^ \t]/ {
        name = $1
        entry = strip(join(top, name))
        print "entry\t" entry "\t" NR
        dir = (name ~ /\/$/) ? entry : top
        blocktokens(substr(trim($0), length(name) + 1), dir, NR)
        next
    }
    /^[ \t]+[^ \t]/ { blocktokens($0, dir, NR) }
    END { prosetokens() }
' "${DOC}")"

declare -A named=()
problems=()

exists() { compgen -G "$1" >/dev/null; }
# gone says how a path that is not there is missing.
gone() { if [[ "$1" == *'*'* ]]; then echo "matches no file"; else echo "does not exist"; fi; }

while IFS=$'\t' read -r kind path line; do
    case "${kind}" in
    entry)
        named["${path}"]=1
        if ! exists "${path}"; then
            problems+=("${DOC}:${line}: the Layout block has a line for ${path}, which $(gone "${path}"): remove the line, or change it to the new name")
        fi
        ;;
    block)
        if ! exists "${path}"; then
            problems+=("${DOC}:${line}: the Layout block names ${path}, which $(gone "${path}"): correct or remove the name")
        fi
        ;;
    prose)
        if [[ "${path}" == */* ]]; then
            exists "${path}" || problems+=("${DOC}:${line}: the Layout section names \`${path}\`, which $(gone "${path}"): correct or remove it")
        elif ! exists "${path}" && ! exists "pkg/reconcile/${path}"; then
            problems+=("${DOC}:${line}: the Layout section names \`${path}\`, which is neither in the root nor in pkg/reconcile/: correct or remove it, or write its path from the repository root")
        fi
        ;;
    esac
done <<<"${records}"

# Every package under pkg/ with hand-written code has a line.
mapfile -t packages < <(find pkg -name '*.go' -not -name '*_test.go' -not -name 'zz_generated*' \
    -not -path 'pkg/client/*' | sed 's|/[^/]*$||' | sort -u)
for pkg in "${packages[@]}"; do
    if [[ -z "${named[${pkg}]:-}" ]]; then
        problems+=("package ${pkg} has no line in the Layout block of ${DOC}: add \"${pkg}/   <what it holds>\" at column 0")
    fi
done

# Every non-test .go file of the root and of pkg/reconcile has a line.
mapfile -t files < <(find . pkg/reconcile -maxdepth 1 -name '*.go' -not -name '*_test.go' \
    -not -name 'zz_generated*' | sed 's|^\./||' | sort -u)
for file in "${files[@]}"; do
    if [[ -n "${named[${file}]:-}" ]]; then
        continue
    fi
    if [[ "${file}" == pkg/reconcile/* ]]; then
        problems+=("${file} has no line in the Layout block of ${DOC}: add \"  ${file#pkg/reconcile/}   <what it holds>\" under the pkg/reconcile/ line")
    else
        problems+=("${file} has no line in the Layout block of ${DOC}: add \"${file}   <what it holds>\" at column 0")
    fi
done

if ((${#problems[@]} > 0)); then
    printf 'verify-design-layout: %s\n' "${problems[@]}" >&2
    exit 1
fi
echo "verify-design-layout: the Layout of ${DOC} names ${#packages[@]} packages and ${#files[@]} files of the root and pkg/reconcile, and nothing that is gone"
