// Command olm makes the controller's OLM bundle from the sources of deploy/ and the chart
// (crd/, the manifests deploy/ applies, example/, VERSION), and validates a bundle with
// operator-framework's own validation library. It is a module of its own, so that the
// controller's go.mod and vendor/ carry none of that library's dependencies.
//
//	go run . generate -root ../.. -out ../../_output/bundle
//	go run . validate ../../_output/bundle
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: olm generate -root DIR -out DIR | olm validate DIR")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "generate":
		fs := flag.NewFlagSet("generate", flag.ExitOnError)
		root := fs.String("root", ".", "The repository's root: where crd/, deploy/, example/ and VERSION are.")
		out := fs.String("out", "_output/bundle", "The bundle's folder, made anew: manifests/ and metadata/.")
		_ = fs.Parse(os.Args[2:])
		err = generate(*root, *out)
	case "validate":
		if len(os.Args) != 3 {
			err = fmt.Errorf("usage: olm validate DIR")
			break
		}
		err = validate(os.Args[2], os.Stdout)
	default:
		err = fmt.Errorf("unknown command %q: generate or validate", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "olm:", err)
		os.Exit(1)
	}
}
