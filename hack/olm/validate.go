package main

import (
	"fmt"
	"io"

	"github.com/operator-framework/api/pkg/manifests"
	"github.com/operator-framework/api/pkg/validation"
)

// validate loads the bundle in dir as OLM does and runs operator-framework's validators
// on it: the default bundle suite (CSV, CRDs, the bundle), the OperatorHub suite with its
// standard capabilities and categories, good practices and the deprecated-APIs check at
// the CSV's minKubeVersion. Any error or warning fails it.
func validate(dir string, w io.Writer) error {
	bundle, err := manifests.GetBundleFromDir(dir)
	if err != nil {
		return fmt.Errorf("loading the bundle in %s: %w", dir, err)
	}
	suites := validation.DefaultBundleValidators.WithValidators(
		validation.OperatorHubV2Validator,
		validation.StandardCapabilitiesValidator,
		validation.StandardCategoriesValidator,
		validation.GoodPracticesValidator,
		validation.AlphaDeprecatedAPIsValidator,
	)
	objs := append(bundle.ObjectsToValidate(), map[string]string{"k8s-version": bundle.CSV.Spec.MinKubeVersion})
	var errs, warns int
	for _, result := range suites.Validate(objs...) {
		for _, e := range result.Errors {
			errs++
			fmt.Fprintf(w, "ERROR %s: %s\n", result.Name, e.Error())
		}
		for _, e := range result.Warnings {
			warns++
			fmt.Fprintf(w, "WARNING %s: %s\n", result.Name, e.Error())
		}
	}
	fmt.Fprintf(w, "olm: bundle %s (CSV %s, %d CRDs, %d other objects): %d errors, %d warnings from the bundle, CSV, CRD, OperatorHub, capabilities, categories, good-practices and deprecated-API suites\n",
		dir, bundle.CSV.GetName(), len(bundle.V1CRDs), len(bundle.Objects), errs, warns)
	if errs+warns > 0 {
		return fmt.Errorf("the bundle in %s has %d errors and %d warnings", dir, errs, warns)
	}
	return nil
}
