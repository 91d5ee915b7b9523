// Command kube-scheduler runs the scheduler of the k8s.io/kubernetes version pinned in
// ../go.mod, for the local node of hack/local-node.sh.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-scheduler/app"
)

func main() {
	os.Exit(cli.Run(app.NewSchedulerCommand()))
}
