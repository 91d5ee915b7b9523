# Sourced by hack/local-node.sh and hack/local-keystone.sh: the local node's bridge. Pods get
# addresses in NODE_SUBNET; the host is NODE_GATEWAY there, where Pods reach the apiserver,
# Keystone and Neutron (forwarded to their loopback ports).
NODE_BRIDGE=ncnode0
NODE_SUBNET=10.244.77.0/24
NODE_GATEWAY=10.244.77.1
