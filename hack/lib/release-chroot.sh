#!/usr/bin/env bash
# Runs a command of the local cloud's OpenStack release inside that release's root file
# system (hack/lib/openstack-release.sh builds it), as the last step of
#
#   unshare --mount -- hack/lib/release-chroot.sh ROOT DIR... -- COMMAND [ARG...]
#
# In the mount namespace of its own that unshare gave it (private: nothing mounted here
# is seen outside, and it all goes when the command ends), it mounts /dev, /proc and each
# DIR (the state folders, the repository, /tmp) at the same paths inside ROOT, then
# becomes COMMAND by exec, so its PID is the one the caller recorded. The network is the
# machine's: servers bind 127.0.0.1 as on the host.
set -euo pipefail

root=${1:?usage: release-chroot.sh ROOT DIR... -- COMMAND [ARG...]}
shift
[[ -x "${root}/usr/bin/env" ]] || { echo "release-chroot.sh: ${root} is no root file system" >&2; exit 1; }

mount --rbind /dev "${root}/dev"
mount -t proc proc "${root}/proc"
while [[ $# -gt 0 && "$1" != -- ]]; do
  dir=$1
  shift
  [[ -d "${dir}" ]] || continue
  mkdir -p "${root}${dir}"
  mount --bind "${dir}" "${root}${dir}"
done
[[ "${1:-}" == -- ]] || { echo "release-chroot.sh: no -- before the command" >&2; exit 2; }
shift

# The host's Python settings (a pyenv or virtualenv) mean nothing to the release's Python.
exec chroot "${root}" /usr/bin/env -u PYTHONPATH -u PYTHONHOME -u VIRTUAL_ENV \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
