# Sourced by hack/local-kube.sh: the local control plane's credentials, made once per
# state folder (CA, serving certificate, service-account keys, the tokens of the admin
# and of kube-controller-manager), and the kubeconfigs and env file that hand them to
# clients and to kube-controller-manager.
#
# Needs STATE_DIR, PKI_DIR, TOKEN_FILE, KUBECONFIG_FILE, KCM_KUBECONFIG, HOST, the
# ports, log and die.

KCM_USER=system:kube-controller-manager

# The admin's token is the first line of the token file.
admin_token() { { cut -d, -f1 "${TOKEN_FILE}" | head -n1; } 2>/dev/null || true; }

kcm_token() {
  { awk -F, -v u="${KCM_USER}" '$2 == u { print $1; exit }' "${TOKEN_FILE}"; } 2>/dev/null || true
}

gen_pki() {
  if ! [[ -f "${PKI_DIR}/ca.crt" && -f "${PKI_DIR}/ca.key" && -f "${PKI_DIR}/apiserver.crt" &&
          -f "${PKI_DIR}/apiserver.key" && -f "${PKI_DIR}/sa.key" && -f "${PKI_DIR}/sa.pub" &&
          -s "${TOKEN_FILE}" ]]; then
    gen_all_pki
  fi
  # State folders made before kube-controller-manager was added have the admin
  # token only: add its token rather than replace the CA that clients already
  # trust. kube-apiserver reads the file at start only; cmd_start calls this
  # before starting it.
  if [[ -z "$(kcm_token)" ]]; then
    log "adding the ${KCM_USER} token to ${TOKEN_FILE##*/}"
    add_kcm_token
  fi
}

# token,user,uid: the bootstrap RBAC policy binds the ClusterRole of the same
# name to this user; it needs no group.
add_kcm_token() { echo "$(openssl rand -hex 32),${KCM_USER},${KCM_USER}" >>"${TOKEN_FILE}"; }

gen_all_pki() {
  log "generating CA, serving certificate, service-account keys and tokens"
  rm -rf "${PKI_DIR}"
  mkdir -p "${PKI_DIR}"
  local tmp="${PKI_DIR}/.tmp" out
  mkdir -p "${tmp}"
  out="${tmp}/openssl.log"
  {
    openssl genrsa -out "${PKI_DIR}/ca.key" 2048
    openssl req -x509 -new -key "${PKI_DIR}/ca.key" -sha256 -days 3650 \
      -subj "/CN=local-kube-ca" \
      -addext "basicConstraints=critical,CA:TRUE" \
      -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" \
      -out "${PKI_DIR}/ca.crt"

    openssl genrsa -out "${PKI_DIR}/apiserver.key" 2048
    openssl req -new -key "${PKI_DIR}/apiserver.key" -subj "/CN=kube-apiserver" \
      -out "${tmp}/apiserver.csr"
    cat >"${tmp}/apiserver.ext" <<EOF
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:10.96.0.1
EOF
    openssl x509 -req -in "${tmp}/apiserver.csr" -CA "${PKI_DIR}/ca.crt" -CAkey "${PKI_DIR}/ca.key" \
      -set_serial "0x$(openssl rand -hex 16)" -sha256 -days 3650 \
      -extfile "${tmp}/apiserver.ext" -out "${PKI_DIR}/apiserver.crt"

    openssl genrsa -out "${PKI_DIR}/sa.key" 2048
    openssl rsa -in "${PKI_DIR}/sa.key" -pubout -out "${PKI_DIR}/sa.pub"
  } >"${out}" 2>&1 || { cat "${out}" >&2; rm -rf "${PKI_DIR}"; die "openssl failed"; }

  # token,user,uid,"group1,group2"
  echo "$(openssl rand -hex 32),admin,admin,\"system:masters\"" >"${TOKEN_FILE}"
  add_kcm_token
  rm -rf "${tmp}"
}

# kubeconfig_file FILE USER TOKEN: a kubeconfig for the local apiserver that
# authenticates as USER with TOKEN, replaced in one step. Rewritten at each start,
# as the apiserver port may change.
kubeconfig_file() {
  local file=$1 user=$2 token=$3 ca tmp="$1.tmp"
  ca="$(base64 -w0 <"${PKI_DIR}/ca.crt")"
  cat >"${tmp}" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: local-kube
  cluster:
    server: https://${HOST}:${KUBE_PORT}
    certificate-authority-data: ${ca}
users:
- name: ${user}
  user:
    token: ${token}
contexts:
- name: local-kube
  context:
    cluster: local-kube
    user: ${user}
    namespace: default
current-context: local-kube
EOF
  mv -f "${tmp}" "${file}"
}

# write_kubeconfig: the admin's kubeconfig and the env file, written once the control
# plane is ready.
write_kubeconfig() {
  kubeconfig_file "${KUBECONFIG_FILE}" admin "$(admin_token)"
  cat >"${STATE_DIR}/env" <<EOF
KUBECONFIG=${KUBECONFIG_FILE}
LOCAL_KUBE_PORT=${KUBE_PORT}
LOCAL_ETCD_PORT=${ETCD_PORT}
LOCAL_ETCD_PEER_PORT=${ETCD_PEER_PORT}
LOCAL_KCM_PORT=${KCM_PORT}
EOF
}

# write_kcm_kubeconfig: kube-controller-manager's own identity, for its
# --kubeconfig and its delegated authentication and authorization.
write_kcm_kubeconfig() { kubeconfig_file "${KCM_KUBECONFIG}" "${KCM_USER}" "$(kcm_token)"; }
