// Command kube-controller-manager runs the Kubernetes controller manager of the
// k8s.io/kubernetes version pinned in ../go.mod, for the local control plane of
// hack/local-kube.sh: namespace deletion, garbage collection and the default
// ServiceAccount of each namespace need it.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() {
	os.Exit(cli.Run(app.NewControllerManagerCommand()))
}
