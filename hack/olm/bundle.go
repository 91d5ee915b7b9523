package main

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blang/semver/v4"
	opversion "github.com/operator-framework/api/pkg/lib/version"
	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// The package and channel of the bundle; the minimum Kubernetes is the CRD's (its rules
// compare IPs and CIDRs with the CEL libraries of Kubernetes 1.32).
const (
	packageName    = "network-controller"
	channel        = "candidate"
	minKubeVersion = "1.32.0"
)

//go:embed icon.svg
var icon []byte

// generate writes the bundle of the version in VERSION to out: the CSV, built from what
// deploy/ applies for all namespaces (the ServiceAccount's bound rules, the Deployment
// with kustomize's image), the CRDs of crd/, the ClusterRoles deploy/ leaves to others to
// bind, and metadata/annotations.yaml.
func generate(root, out string) error {
	raw, err := os.ReadFile(filepath.Join(root, "VERSION"))
	if err != nil {
		return err
	}
	version, err := semver.Parse(strings.TrimPrefix(strings.TrimSpace(string(raw)), "v"))
	if err != nil {
		return fmt.Errorf("VERSION: %w", err)
	}
	d := &deployment{}
	if err := d.read(filepath.Join(root, "deploy")); err != nil {
		return err
	}
	csv, err := d.csv(version)
	if err != nil {
		return err
	}
	crds, err := readCRDs(filepath.Join(root, "crd"))
	if err != nil {
		return err
	}
	for _, crd := range crds {
		csv.Spec.CustomResourceDefinitions.Owned = append(csv.Spec.CustomResourceDefinitions.Owned, ownedCRD(crd))
	}
	examples, err := readExamples(root)
	if err != nil {
		return err
	}
	csv.Annotations["alm-examples"] = examples

	if err := os.RemoveAll(out); err != nil {
		return err
	}
	manifests := filepath.Join(out, "manifests")
	if err := os.MkdirAll(manifests, 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, "metadata"), 0o755); err != nil {
		return err
	}
	if err := writeYAML(filepath.Join(manifests, packageName+".clusterserviceversion.yaml"), csv); err != nil {
		return err
	}
	for _, crd := range crds {
		if err := writeYAML(filepath.Join(manifests, crd.Name+".yaml"), crd); err != nil {
			return err
		}
	}
	for _, role := range d.unbound() {
		if err := writeYAML(filepath.Join(manifests, role.Name+".clusterrole.yaml"), role); err != nil {
			return err
		}
	}
	annotations := map[string]map[string]string{"annotations": {
		"operators.operatorframework.io.bundle.mediatype.v1":       "registry+v1",
		"operators.operatorframework.io.bundle.manifests.v1":       "manifests/",
		"operators.operatorframework.io.bundle.metadata.v1":        "metadata/",
		"operators.operatorframework.io.bundle.package.v1":         packageName,
		"operators.operatorframework.io.bundle.channels.v1":        channel,
		"operators.operatorframework.io.bundle.channel.default.v1": channel,
	}}
	if err := writeYAML(filepath.Join(out, "metadata", "annotations.yaml"), annotations); err != nil {
		return err
	}
	fmt.Printf("olm: bundle of %s in %s: CSV %s, %d CRDs, %d ClusterRoles to bind\n", version, out, csv.Name, len(crds), len(d.unbound()))
	return nil
}

// deployment is what deploy/ applies for all namespaces, read in kustomize's order.
type deployment struct {
	serviceAccount, namespace string
	clusterRoles              []rbacv1.ClusterRole
	roles                     []rbacv1.Role
	// boundCluster and boundRoles name the roles bound to the ServiceAccount.
	boundCluster, boundRoles map[string]bool
	// elsewhere are roles bound in other namespaces than the controller's: a CSV cannot
	// carry them.
	elsewhere []string
	deploy    *appsv1.Deployment
	images    map[string]string
}

// read reads the kustomization in dir, its resources in order, recursively.
func (d *deployment) read(dir string) error {
	var k struct {
		Resources []string `json:"resources"`
		Images    []struct {
			Name, NewName, NewTag string
		} `json:"images"`
	}
	if err := readYAMLFile(filepath.Join(dir, "kustomization.yaml"), &k); err != nil {
		return err
	}
	if d.images == nil {
		d.images, d.boundCluster, d.boundRoles = map[string]string{}, map[string]bool{}, map[string]bool{}
	}
	for _, img := range k.Images {
		d.images[img.Name] = img.NewName + ":" + img.NewTag
	}
	for _, r := range k.Resources {
		path := filepath.Join(dir, r)
		if info, err := os.Stat(path); err == nil && info.IsDir() {
			if err := d.read(path); err != nil {
				return err
			}
			continue
		}
		if err := d.readFile(path); err != nil {
			return err
		}
	}
	return nil
}

func (d *deployment) readFile(path string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(raw), 4096)
	for {
		var u unstructured.Unstructured
		if err := dec.Decode(&u.Object); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if u.Object == nil {
			continue
		}
		if err := d.add(&u); err != nil {
			return fmt.Errorf("%s: %s %s: %w", path, u.GetKind(), u.GetName(), err)
		}
	}
}

// add keeps what the CSV needs of one object; the others (the namespaces, the
// PodDisruptionBudget, the Service, the NetworkPolicy, the admission policy) are left to
// deploy/: OLM installs only what a CSV describes.
func (d *deployment) add(u *unstructured.Unstructured) error {
	from := runtime.DefaultUnstructuredConverter.FromUnstructured
	switch u.GetKind() {
	case "ServiceAccount":
		d.serviceAccount, d.namespace = u.GetName(), u.GetNamespace()
	case "ClusterRole":
		var r rbacv1.ClusterRole
		if err := from(u.Object, &r); err != nil {
			return err
		}
		d.clusterRoles = append(d.clusterRoles, r)
	case "Role":
		var r rbacv1.Role
		if err := from(u.Object, &r); err != nil {
			return err
		}
		d.roles = append(d.roles, r)
	case "ClusterRoleBinding", "RoleBinding":
		var b rbacv1.RoleBinding
		if err := from(u.Object, &b); err != nil {
			return err
		}
		if !slices.ContainsFunc(b.Subjects, func(s rbacv1.Subject) bool { return s.Kind == "ServiceAccount" && s.Name == d.serviceAccount }) {
			return nil
		}
		switch {
		case u.GetKind() == "ClusterRoleBinding":
			d.boundCluster[b.RoleRef.Name] = true
		case b.Namespace == d.namespace:
			d.boundRoles[b.RoleRef.Name] = true
		default:
			d.elsewhere = append(d.elsewhere, fmt.Sprintf("Role %s in namespace %s", b.RoleRef.Name, b.Namespace))
		}
	case "Deployment":
		d.deploy = &appsv1.Deployment{}
		return from(u.Object, d.deploy)
	}
	return nil
}

// unbound are the ClusterRoles deploy/ makes for others to bind (a namespace's credentials,
// a metrics scraper).
func (d *deployment) unbound() []rbacv1.ClusterRole {
	var out []rbacv1.ClusterRole
	for _, r := range d.clusterRoles {
		if !d.boundCluster[r.Name] {
			r.TypeMeta = metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole"}
			out = append(out, r)
		}
	}
	return out
}

// csv builds the ClusterServiceVersion of version without its CRDs and examples.
func (d *deployment) csv(version semver.Version) (*operatorsv1alpha1.ClusterServiceVersion, error) {
	if d.deploy == nil || d.serviceAccount == "" {
		return nil, errors.New("deploy/ has no Deployment or no ServiceAccount")
	}
	spec := *d.deploy.Spec.DeepCopy()
	image := ""
	for i, c := range spec.Template.Spec.Containers {
		if img, ok := d.images[strings.Split(c.Image, ":")[0]]; ok {
			spec.Template.Spec.Containers[i].Image = img
		}
		image = spec.Template.Spec.Containers[i].Image
	}
	var clusterRules, rules []rbacv1.PolicyRule
	for _, r := range d.clusterRoles {
		if d.boundCluster[r.Name] {
			clusterRules = append(clusterRules, r.Rules...)
		}
	}
	for _, r := range d.roles {
		if d.boundRoles[r.Name] && r.Namespace == d.namespace {
			rules = append(rules, r.Rules...)
		}
	}
	csv := &operatorsv1alpha1.ClusterServiceVersion{
		TypeMeta: metav1.TypeMeta{APIVersion: operatorsv1alpha1.SchemeGroupVersion.String(), Kind: operatorsv1alpha1.ClusterServiceVersionKind},
		ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("%s.v%s", packageName, version),
			Annotations: map[string]string{
				"capabilities":   "Basic Install",
				"categories":     "Networking",
				"containerImage": image,
				"description":    "Realizes Network objects as OpenStack Neutron networks, subnets, routers and sharing policies.",
				"repository":     "https://github.com/samplecrd/network-controller",
				"support":        "network-controller maintainers",
			},
		},
		Spec: operatorsv1alpha1.ClusterServiceVersionSpec{
			DisplayName:    "Network Controller",
			Description:    description(d.elsewhere),
			Version:        opversion.OperatorVersion{Version: version},
			MinKubeVersion: minKubeVersion,
			Maturity:       "alpha",
			Keywords:       []string{"openstack", "neutron", "network", "subnet", "router"},
			Provider:       operatorsv1alpha1.AppLink{Name: "network-controller maintainers"},
			Maintainers:    []operatorsv1alpha1.Maintainer{{Name: "network-controller maintainers", Email: "maintainers@network-controller.example.org"}},
			Links:          []operatorsv1alpha1.AppLink{{Name: "Documentation", URL: "https://github.com/samplecrd/network-controller/tree/main/docs"}},
			Icon:           []operatorsv1alpha1.Icon{{Data: base64.StdEncoding.EncodeToString(icon), MediaType: "image/svg+xml"}},
			// OLM makes the Roles of its target namespaces only from a CSV's own
			// permissions; the namespaced install (deploy/namespaced/) is kustomize's.
			InstallModes: []operatorsv1alpha1.InstallMode{
				{Type: operatorsv1alpha1.InstallModeTypeOwnNamespace, Supported: false},
				{Type: operatorsv1alpha1.InstallModeTypeSingleNamespace, Supported: false},
				{Type: operatorsv1alpha1.InstallModeTypeMultiNamespace, Supported: false},
				{Type: operatorsv1alpha1.InstallModeTypeAllNamespaces, Supported: true},
			},
			InstallStrategy: operatorsv1alpha1.NamedInstallStrategy{
				StrategyName: operatorsv1alpha1.InstallStrategyNameDeployment,
				StrategySpec: operatorsv1alpha1.StrategyDetailsDeployment{
					DeploymentSpecs:    []operatorsv1alpha1.StrategyDeploymentSpec{{Name: d.deploy.Name, Label: d.deploy.Labels, Spec: spec}},
					ClusterPermissions: []operatorsv1alpha1.StrategyDeploymentPermissions{{ServiceAccountName: d.serviceAccount, Rules: clusterRules}},
					Permissions:        []operatorsv1alpha1.StrategyDeploymentPermissions{{ServiceAccountName: d.serviceAccount, Rules: rules}},
				},
			},
		},
	}
	return csv, nil
}

func description(elsewhere []string) string {
	var b strings.Builder
	b.WriteString(`network-controller realizes each Network (samplecrd.k8s.io/v1, namespaced) as a real OpenStack Neutron network with its subnets, and, when its spec asks, a router and RBAC policies that share it, in the project of its credentials. It keeps Neutron as the spec says (drift is checked on each Network's own period and repaired or only reported), records progress in status and Events, and deletes or keeps the Neutron resources when the Network goes.

Before installing, create the Secret network-controller-clouds (key clouds.yaml, cloud "openstack") in the namespace the operator runs in: the controller's own OpenStack credentials. Namespaces may instead name credentials of their own (spec.cloudCredentialsRef).`)
	if len(elsewhere) > 0 {
		fmt.Fprintf(&b, "\n\nA CSV cannot grant rights in other namespaces than the operator's: for ClusterIdentity credentials, apply %s from the project's deploy/base/ as well.", strings.Join(elsewhere, ", "))
	}
	return b.String()
}

// readCRDs reads the CRDs of dir, in the order of their file names.
func readCRDs(dir string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	var crds []*apiextensionsv1.CustomResourceDefinition
	for _, f := range files {
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := readYAMLFile(f, crd); err != nil {
			return nil, err
		}
		crds = append(crds, crd)
	}
	return crds, nil
}

// ownedCRD describes crd in the CSV, by its served storage version and the first
// paragraph of its schema's description.
func ownedCRD(crd *apiextensionsv1.CustomResourceDefinition) operatorsv1alpha1.CRDDescription {
	owned := operatorsv1alpha1.CRDDescription{Name: crd.Name, Kind: crd.Spec.Names.Kind, DisplayName: crd.Spec.Names.Kind}
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			owned.Version = v.Name
			if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
				owned.Description = strings.ReplaceAll(strings.SplitN(v.Schema.OpenAPIV3Schema.Description, "\n\n", 2)[0], "\n", " ")
			}
		}
	}
	return owned
}

// readExamples returns, as JSON, the Networks of example/ and the ClusterIdentities of
// deploy/examples/: the CSV's alm-examples.
func readExamples(root string) (string, error) {
	files, err := filepath.Glob(filepath.Join(root, "example", "*.yaml"))
	if err != nil {
		return "", err
	}
	files = append(files, filepath.Join(root, "deploy", "examples", "cluster-identity.example.yaml"))
	var examples []map[string]any
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(raw), 4096)
		for {
			var obj map[string]any
			if err := dec.Decode(&obj); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				return "", fmt.Errorf("%s: %w", f, err)
			}
			if kind, _ := obj["kind"].(string); kind == "Network" || kind == "ClusterIdentity" {
				examples = append(examples, obj)
			}
		}
	}
	out, err := json.MarshalIndent(examples, "", "  ")
	return string(out), err
}

func readYAMLFile(path string, into any) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := yaml.Unmarshal(raw, into); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func writeYAML(path string, obj any) error {
	out, err := yaml.Marshal(obj)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, out, 0o644)
}
