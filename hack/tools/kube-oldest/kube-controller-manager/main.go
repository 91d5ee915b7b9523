// Command kube-controller-manager runs the Kubernetes controller manager of the
// k8s.io/kubernetes version pinned in ../go.mod: the oldest release README claims, beside
// ../kube-apiserver, for the compatibility runs of the end-to-end tests. The same smallest
// main as ../../kube-controller-manager.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() {
	os.Exit(cli.Run(app.NewControllerManagerCommand()))
}
