// Package scope is the set of namespaces the controller watches: all of them, or the ones
// -namespace names, each then with informers of its own, since a list or watch covers one
// namespace or all.
package scope

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// Namespaces are the namespaces watched; empty means all.
type Namespaces []string

// All reports whether every namespace is watched.
func (n Namespaces) All() bool { return len(n) == 0 }

// Contains reports whether namespace is watched.
func (n Namespaces) Contains(namespace string) bool {
	return n.All() || slices.Contains(n, namespace)
}

func (n Namespaces) String() string {
	if n.All() {
		return "all"
	}
	return strings.Join(n, ",")
}

// Set adds one namespace: -namespace may be given several times, each with one name or
// a comma-separated list.
func (n *Namespaces) Set(value string) error {
	for _, ns := range strings.Split(value, ",") {
		ns = strings.TrimSpace(ns)
		if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
			return fmt.Errorf("%q is not a namespace name: %s", ns, strings.Join(errs, "; "))
		}
		if !slices.Contains(*n, ns) {
			*n = append(*n, ns)
		}
	}
	return nil
}
