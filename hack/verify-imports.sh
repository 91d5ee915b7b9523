#!/usr/bin/env bash
# Fails when a package imports a package of its own layer or above, as go list reports
# the imports of the code (tests included, test-only imports of networktest aside). The
# layers, lowest first, are the order a reader can follow the code in: the API and
# generated client, the small building blocks, the Neutron model and its fake, what talks
# to Neutron, tenants, the reconciler, the loops around it, test support, the command.
# Outside pkg/credentials, code imports only its door, pkg/credentials (the one
# constructor, and the tenants the reconciler and the resync see), and the vocabulary of
# grants, pkg/credentials/grants.
set -o errexit -o nounset -o pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "${REPO_ROOT}"
MODULE=github.com/samplecrd/network-controller

# One layer a line; a name ending in / stands for every package under it.
LAYERS='
pkg/apis/
pkg/client/
pkg/shard
pkg/buildinfo pkg/crashpoint pkg/fairqueue pkg/credentials/tokenturns pkg/logging pkg/signals pkg/startup pkg/subnetplan pkg/scope pkg/leaderelect pkg/metrics pkg/requestid
pkg/credentials/secretwatch pkg/credentials/grants
pkg/neutron
pkg/neutron/fake
pkg/neutronclient pkg/neutronstore pkg/endpoints
pkg/credentials/tokenrequests
pkg/credentials/lockout
pkg/credentials/registry
pkg/credentials/owncloud pkg/credentials/secretguard pkg/credentials/identitystatus
pkg/credentials/requeue
pkg/credentials
pkg/reconcile
pkg/resync pkg/shardwork
pkg/networktest
.'

go list -f '{{.ImportPath}} {{join .Imports " "}} {{join .XTestImports " "}}' ./... |
    awk -v module="${MODULE}" -v layers="${LAYERS}" -v door='^pkg/credentials/grants$' '
    function rel(p) {
        if (p == module) return "."
        if (index(p, module "/") == 1) return substr(p, length(module) + 2)
        return ""
    }
    function layer(p,    best, i) {
        if (p in exact) return exact[p]
        best = -1
        for (i in prefix) if (index(p, i) == 1) best = prefix[i]
        return best
    }
    BEGIN {
        n = split(layers, lines, "\n"); l = 0
        for (i = 1; i <= n; i++) {
            if (lines[i] == "") continue
            m = split(lines[i], names, " ")
            for (j = 1; j <= m; j++) {
                if (names[j] ~ /\/$/) prefix[names[j]] = l; else exact[names[j]] = l
            }
            l++
        }
    }
    {
        pkg = rel($1)
        if (pkg == "" || pkg ~ /^(test|hack)\//) next
        lp = layer(pkg)
        if (lp < 0) { printf "verify-imports: %s has no layer in hack/verify-imports.sh: add it\n", pkg; bad = 1; next }
        for (i = 2; i <= NF; i++) {
            dep = rel($i)
            if (dep == "" || dep == pkg || dep == "pkg/networktest") continue
            ld = layer(dep)
            if (ld >= lp && !(pkg ~ /^pkg\/(apis|client)\// && dep ~ /^pkg\/(apis|client)\//)) {
                printf "verify-imports: %s imports %s, which is not below it\n", pkg, dep; bad = 1
            }
            if (dep ~ /^pkg\/credentials\// && dep !~ door && pkg !~ /^pkg\/credentials(\/|$)/) {
                printf "verify-imports: %s imports %s: outside pkg/credentials, only its door (pkg/credentials) and the grants vocabulary (pkg/credentials/grants) are imported\n", pkg, dep; bad = 1
            }
        }
        count++
    }
    END {
        if (bad) exit 1
        printf "verify-imports: %d packages each import only layers below their own\n", count
    }'
