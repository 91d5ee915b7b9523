# Two commands matter: `make run` and `make test`. See README.md.
SHELL := /usr/bin/env bash
.DEFAULT_GOAL := help

BIN := _output/bin/network-controller
# The build names itself with these: -version, the User-Agent of its OpenStack calls and
# the metric network_controller_build_info (hack/version.sh says how they are made).
VERSION ?= $(shell hack/version.sh version)
# make release takes VERSION only when given on the command line or in the environment.
RELEASE_VERSION := $(if $(filter command line environment,$(origin VERSION)),$(VERSION))
COMMIT ?= $(shell hack/version.sh commit)
LDFLAGS := -X github.com/samplecrd/network-controller/pkg/buildinfo.version=$(VERSION) -X github.com/samplecrd/network-controller/pkg/buildinfo.commit=$(COMMIT)
# Every go command of these targets and the scripts they run builds with -trimpath and
# without cgo (but the race detector's unit tests, which need cgo): compiled packages then
# depend neither on where the clone is nor on which target built them, so the checks, the
# tests, the binaries and the image build share one Go build cache, and a fresh clone
# anywhere on the machine reuses it.
export GOFLAGS := $(strip $(GOFLAGS) -trimpath)
export CGO_ENABLED ?= 0
# Networks of make bench-scale.
SCALE_N ?= 10000

.PHONY: help
help: ## List the targets.
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

.PHONY: build
build: ## Build the controller binary into _output/bin (from vendor/, no network).
	@echo "build: compiling the controller and its vendored dependencies (client-go, gophercloud, ...) into $(BIN);" \
		"the first time takes 2-5 minutes on 2 cores and prints nothing until done, later builds take seconds"
	CGO_ENABLED=0 go build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) .

.PHONY: run
run: build ## Start local Kubernetes, Keystone and Neutron (OPENSTACK_RELEASE: 2025.1, 2022.2 or newest) if none is configured, install the CRD, run the controller as a member-role user.
	hack/run-local.sh $(BIN)

.PHONY: test
test: ## Everything CI runs: verify, unit, monitoring, e2e and the node e2e, the compat sets on the other OpenStack releases and the oldest Kubernetes; prints each step's time.
	hack/test.sh all

.PHONY: verify
verify: ## gofmt, go vet, generated code (and crd/) and vendor/ up to date, the code layout in docs/design.md, imports only downwards, no Go file over 600 lines, one version everywhere.
	hack/verify-gofmt.sh
	hack/verify-design-layout.sh
	hack/verify-imports.sh
	hack/verify-file-size.sh
	hack/verify-version.sh
	go vet ./...
	go vet -tags e2e ./test/...
	hack/verify-codegen.sh
	hack/verify-vendor.sh

.PHONY: test-short
test-short: ## A first answer in a few minutes: verify, unit tests and one end-to-end story (TestWalkingSkeleton).
	hack/test.sh short

.PHONY: unit
unit: ## Unit tests (fake clientset, fake Neutron driver), with the race detector.
	CGO_ENABLED=1 go test -race -count=1 ./...

.PHONY: monitoring
monitoring: ## promtool check rules and promtool test rules on deploy/monitoring/ (installs Debian's prometheus).
	hack/prometheus.sh check

.PHONY: fuzz
fuzz: ## Run every Go fuzz target for FUZZ_TIME each (default 60s); not part of test.
	hack/fuzz.sh

.PHONY: e2e
e2e: ## End-to-end tests on a real kube-apiserver and a real neutron-server.
	hack/e2e.sh

.PHONY: bench
bench: ## Controller vs a raw gophercloud loop on local servers (flags in BENCH_ARGS, see docs/performance.md); BASELINE=<commit> runs that commit's build beside it in every round.
	BASELINE="$(BASELINE)" hack/bench.sh

.PHONY: bench-scale
bench-scale: ## Only the scale stage: 10,000 Networks (SCALE_N), restarted at 1,000, 3,000 and at the end; about an hour.
	hack/bench.sh -rounds 0 -dual-rounds 0 -routed-rounds 0 -restart-n 0 -tenants 0 -noisy-rounds 0 -shard-n 0 -scale-n $(SCALE_N) -scale-at 1000,3000

.PHONY: path-of-one-network
path-of-one-network: ## Which files' code runs when one Network is created until Ready, measured with a coverage build on local servers (hack/path-of-one-network.sh); WRITE=1 rewrites the table in docs/design.md.
	hack/path-of-one-network.sh $(if $(WRITE),--write)

.PHONY: release
release: ## The version's artifacts in _output/release (VERSION= overrides the file VERSION): the image as an OCI archive and its digest, install.yaml, the chart, SHA256SUMS; offline and reproducible.
	VERSION="$(RELEASE_VERSION)" hack/release.sh

.PHONY: bundle
bundle: ## The OLM bundle of the version in VERSION in _output/bundle, made from crd/, deploy/ and example/ and validated with operator-framework's library, OperatorHub and good-practice suites included (hack/bundle.sh; part of make test).
	hack/bundle.sh

.PHONY: codegen
codegen: ## Regenerate deepcopy, clientset, listers, informers and the CRD crd/network.yaml after changing pkg/apis.
	hack/update-codegen.sh

.PHONY: image
image: ## Build the container image network-controller:<version> with docker, podman or buildah (hack/image.sh).
	hack/image.sh

.PHONY: test-node
test-node: ## Only the node end-to-end test: deploy/ and the Helm chart as Pods on a real local kubelet (root; part of make test).
	hack/node-e2e.sh

.PHONY: deploy
deploy: ## Run the controller as Pods on a real local node: deploy/ with the image built here (HOW=helm: the chart); make stop ends it.
	hack/deploy-local.sh $(HOW)

.PHONY: undeploy
undeploy: ## Remove what make deploy installed (the node and the servers keep running).
	hack/deploy-local.sh remove

.PHONY: stop
stop: ## Stop the local node, Kubernetes (both versions), Keystone and Neutron (whichever OpenStack release runs) started by make run, make deploy or make test.
	hack/local-node.sh stop
	hack/local-kube.sh stop
	LOCAL_KUBE_VERSION=oldest hack/local-kube.sh stop
	hack/local-keystone.sh stop
	hack/local-neutron.sh stop
