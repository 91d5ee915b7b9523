// Command kube-apiserver runs the Kubernetes API server of the k8s.io/kubernetes version
// pinned in ../go.mod, for the local control plane of hack/local-kube.sh. Kubernetes ships
// its server only as a main package, which cannot be imported, so this is the smallest
// main that runs its command.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	os.Exit(cli.Run(app.NewAPIServerCommand()))
}
