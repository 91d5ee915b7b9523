// Command kube-proxy runs kube-proxy of the k8s.io/kubernetes version pinned in ../go.mod, for
// the local node of hack/local-node.sh: Pods reach the apiserver through the kubernetes
// Service, and the host reaches the controller's metrics Service.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-proxy/app"
)

func main() {
	os.Exit(cli.Run(app.NewProxyCommand()))
}
