// Command kube-apiserver runs the Kubernetes API server of the k8s.io/kubernetes version
// pinned in ../go.mod: the oldest release README claims, for the compatibility
// runs of the end-to-end tests. The same smallest main as ../../kube-apiserver.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	os.Exit(cli.Run(app.NewAPIServerCommand()))
}
