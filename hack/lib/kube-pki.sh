# Sourced by hack/local-kube.sh: the local control plane's credentials, made once per
# state folder (CA, serving certificate, service-account keys, admin token), and the
# kubeconfig and env file that hand them to clients.
#
# Needs STATE_DIR, PKI_DIR, TOKEN_FILE, KUBECONFIG_FILE, HOST, the ports, log and die.

admin_token() { { cut -d, -f1 "${TOKEN_FILE}" | head -n1; } 2>/dev/null || true; }

gen_pki() {
  [[ -f "${PKI_DIR}/ca.crt" && -f "${PKI_DIR}/ca.key" && -f "${PKI_DIR}/apiserver.crt" &&
     -f "${PKI_DIR}/apiserver.key" && -f "${PKI_DIR}/sa.key" && -f "${PKI_DIR}/sa.pub" &&
     -s "${TOKEN_FILE}" ]] && return 0
  log "generating CA, serving certificate, service-account keys and admin token"
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
  rm -rf "${tmp}"
}

write_kubeconfig() {
  local ca token tmp="${KUBECONFIG_FILE}.tmp"
  ca="$(base64 -w0 <"${PKI_DIR}/ca.crt")"
  token="$(admin_token)"
  cat >"${tmp}" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: local-kube
  cluster:
    server: https://${HOST}:${KUBE_PORT}
    certificate-authority-data: ${ca}
users:
- name: admin
  user:
    token: ${token}
contexts:
- name: local-kube
  context:
    cluster: local-kube
    user: admin
    namespace: default
current-context: local-kube
EOF
  mv -f "${tmp}" "${KUBECONFIG_FILE}"
  cat >"${STATE_DIR}/env" <<EOF
KUBECONFIG=${KUBECONFIG_FILE}
LOCAL_KUBE_PORT=${KUBE_PORT}
LOCAL_ETCD_PORT=${ETCD_PORT}
LOCAL_ETCD_PEER_PORT=${ETCD_PEER_PORT}
EOF
}
