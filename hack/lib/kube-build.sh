# Sourced by hack/local-kube.sh, hack/local-node.sh and hack/helm.sh: builds etcd, the
# Kubernetes servers (kube-apiserver, kube-controller-manager; for the node kubelet,
# kube-proxy, kube-scheduler and the Pods' pause), and helm from the modules under
# hack/tools into _output/bin, each only when the stamp of its sources changed. The
# servers named NAME-oldest are those of the oldest Kubernetes README claims, from the
# module hack/tools/kube-oldest (hack/local-kube.sh with LOCAL_KUBE_VERSION=oldest).
#
# Each binary built is also kept outside the clone, under TOOLS_BIN_CACHE (default
# /var/cache/network-controller/bin) by its stamp, so that another clone of the same sources
# (CI's fresh clone, a second work tree) copies it instead of building it again; an entry
# unused for 30 days is removed.
#
# Needs ROOT, TOOLS_DIR, BIN_DIR, log and die.

# shellcheck source=hack/lib/go.sh
source "${ROOT}/hack/lib/go.sh"

# Bump when the build recipe below changes, to force a rebuild.
BUILD_RECIPE=1

go_bin() {
  command -v "${GO}" 2>/dev/null || die "go not found in PATH or /usr/local/go/bin"
}

TOOLS_BIN_CACHE="${TOOLS_BIN_CACHE:-/var/cache/network-controller/bin}"

# stamp_of NAME: hash of everything that determines the binary NAME: its module's files
# and the Go toolchain that builds it.
stamp_of() {
  local files
  case "$1" in
    kube-apiserver | kube-controller-manager | kubelet | kube-proxy | kube-scheduler | pause)
      files=(go.mod go.sum "$1/main.go") ;;
    kube-apiserver-oldest | kube-controller-manager-oldest)
      files=(kube-oldest/go.mod kube-oldest/go.sum "kube-oldest/${1%-oldest}/main.go") ;;
    etcd) files=(etcd/go.mod etcd/go.sum etcd/main.go) ;;
    helm) files=(helm/go.mod helm/go.sum helm/tools.go) ;;
    *) die "unknown binary $1" ;;
  esac
  {
    echo "recipe=${BUILD_RECIPE}"
    "$(go_bin)" version
    (cd "${TOOLS_DIR}" && sha256sum "${files[@]}")
  } | sha256sum | cut -d' ' -f1
}

# kube_version_ldflags MODDIR: the -X flags that make the servers built from MODDIR report
# the k8s.io/kubernetes version its go.mod pins (as a release build does).
kube_version_ldflags() {
  local v major minor x
  v="$(awk '$1 == "k8s.io/kubernetes" && $2 ~ /^v/ { print $2; exit }' "$1/go.mod")"
  [[ -n "${v}" ]] || die "cannot find the k8s.io/kubernetes version in ${1#"${ROOT}"/}/go.mod"
  major="${v#v}"; major="${major%%.*}"
  minor="${v#v*.}"; minor="${minor%%.*}"
  for x in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    printf ' %s' "-X ${x}.gitVersion=${v} -X ${x}.gitMajor=${major} -X ${x}.gitMinor=${minor} -X ${x}.gitTreeState=clean"
  done
}

build_one() {
  local name=$1 moddir pkg ldflags="-s -w" stamp start
  stamp="$(stamp_of "${name}")"
  if [[ -x "${BIN_DIR}/${name}" && -f "${BIN_DIR}/${name}.stamp" &&
        "$(cat "${BIN_DIR}/${name}.stamp")" == "${stamp}" ]]; then
    log "${name} is up to date (${BIN_DIR#"${ROOT}"/}/${name})"
    return 0
  fi
  if copy_from_bin_cache "${name}" "${stamp}"; then
    return 0
  fi
  case "${name}" in
    kube-apiserver | kube-controller-manager | kubelet | kube-proxy | kube-scheduler | pause)
      # One module (hack/tools) pins k8s.io/kubernetes for all, so all report the
      # same version.
      moddir="${TOOLS_DIR}"
      pkg="./${name}"
      ldflags+="$(kube_version_ldflags "${moddir}")"
      ;;
    kube-apiserver-oldest | kube-controller-manager-oldest)
      moddir="${TOOLS_DIR}/kube-oldest"
      pkg="./${name%-oldest}"
      ldflags+="$(kube_version_ldflags "${moddir}")"
      ;;
    etcd)
      moddir="${TOOLS_DIR}/etcd"
      pkg=.
      ;;
    helm)
      moddir="${TOOLS_DIR}/helm"
      pkg=helm.sh/helm/v4/cmd/helm
      local v
      v="$(awk '$1 == "require" { $1 = "" ; $0 = $0 } $1 == "helm.sh/helm/v4" && $2 ~ /^v/ { print $2; exit }' "${moddir}/go.mod")"
      [[ -n "${v}" ]] || die "cannot find the helm.sh/helm/v4 version in hack/tools/helm/go.mod"
      ldflags+=" -X helm.sh/helm/v4/internal/version.version=${v} -X helm.sh/helm/v4/internal/version.gitTreeState=clean"
      ;;
  esac
  mkdir -p "${BIN_DIR}"
  case "${name}" in
    kube-apiserver | kube-apiserver-oldest) log "building ${name} (about 4-5 minutes on 2 cores when the Go build cache is cold)..." ;;
    kube-controller-manager) log "building ${name} (about 4-5 minutes on 2 cores when the Go build cache is cold, under 1 minute after kube-apiserver's build)..." ;;
    kubelet) log "building ${name} (about 4-5 minutes on 2 cores when the Go build cache is cold, under 1 minute after kube-apiserver's build)..." ;;
    helm) log "building ${name} (about 3 minutes on 2 cores when the Go build cache is cold)..." ;;
    *) log "building ${name}..." ;;
  esac
  start=${SECONDS}
  # The tools modules are never vendored: override any -mod=vendor from the
  # caller's GOFLAGS, ignore go.work, and refuse to touch go.mod/go.sum.
  (
    cd "${moddir}"
    GOWORK=off GOFLAGS="-mod=readonly -buildvcs=false" CGO_ENABLED=0 \
      "$(go_bin)" build -trimpath -ldflags "${ldflags}" -o "${BIN_DIR}/.${name}.tmp" "${pkg}"
  ) || { rm -f "${BIN_DIR}/.${name}.tmp"; die "building ${name} failed"; }
  mv -f "${BIN_DIR}/.${name}.tmp" "${BIN_DIR}/${name}"
  echo "${stamp}" >"${BIN_DIR}/${name}.stamp"
  log "built ${name} in $((SECONDS - start))s"
  keep_in_bin_cache "${name}" "${stamp}"
}

# copy_from_bin_cache NAME STAMP: copies the binary NAME built from STAMP's sources out of
# TOOLS_BIN_CACHE into BIN_DIR; fails when the cache has none.
copy_from_bin_cache() {
  local name=$1 stamp=$2 cached="${TOOLS_BIN_CACHE}/$1-$2"
  [[ -x "${cached}" ]] || return 1
  mkdir -p "${BIN_DIR}"
  cp -f "${cached}" "${BIN_DIR}/.${name}.tmp" || { rm -f "${BIN_DIR}/.${name}.tmp"; return 1; }
  mv -f "${BIN_DIR}/.${name}.tmp" "${BIN_DIR}/${name}"
  echo "${stamp}" >"${BIN_DIR}/${name}.stamp"
  touch "${cached}"
  log "${name} copied from the build cache (${cached})"
}

# keep_in_bin_cache NAME STAMP: stores BIN_DIR's NAME in TOOLS_BIN_CACHE (written under a
# temporary name, then renamed, so a concurrent reader never sees half a file) and removes
# the cache's entries unused for 30 days. A cache that cannot be written only costs the
# next clone a build.
keep_in_bin_cache() {
  local name=$1 stamp=$2 tmp
  if ! mkdir -p "${TOOLS_BIN_CACHE}" 2>/dev/null ||
    ! tmp="$(mktemp "${TOOLS_BIN_CACHE}/.${name}.XXXXXX" 2>/dev/null)"; then
    log "cannot write the build cache ${TOOLS_BIN_CACHE}; ${name} is kept in ${BIN_DIR#"${ROOT}"/} only"
    return 0
  fi
  if cp -f "${BIN_DIR}/${name}" "${tmp}" && chmod 0755 "${tmp}"; then
    mv -f "${tmp}" "${TOOLS_BIN_CACHE}/${name}-${stamp}"
  else
    rm -f "${tmp}"
    log "cannot write the build cache ${TOOLS_BIN_CACHE}; ${name} is kept in ${BIN_DIR#"${ROOT}"/} only"
  fi
  find "${TOOLS_BIN_CACHE}" -maxdepth 1 -type f -mtime +30 -delete 2>/dev/null || true
}
