package main

import (
	"flag"
	"fmt"
	"io"
)

// printUsage is -h: what the controller does, its own flags, then klog's apart.
func printUsage(w io.Writer, own, klogFlags *flag.FlagSet) {
	fmt.Fprint(w, `network-controller turns every samplecrd.k8s.io/v1 Network into an OpenStack Neutron
network with one subnet, keeps them in step, and deletes them with the Network.

Usage: network-controller [flags]
  Kubernetes: in-cluster, or -kubeconfig. Neutron: -os-cloud (Keystone, clouds.yaml) or
  -neutron-endpoint (no authentication).

Flags:
`)
	own.SetOutput(w)
	own.PrintDefaults()
	fmt.Fprint(w, "\nLogging flags (klog):\n")
	klogFlags.SetOutput(w)
	klogFlags.PrintDefaults()
}
