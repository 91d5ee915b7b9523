# Two commands matter: `make run` and `make test`. See README.md.
SHELL := /usr/bin/env bash
.DEFAULT_GOAL := help

BIN := _output/bin/network-controller

.PHONY: help
help: ## List the targets.
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

.PHONY: build
build: ## Build the controller binary into _output/bin (from vendor/, no network).
	CGO_ENABLED=0 go build -trimpath -o $(BIN) .

.PHONY: run
run: build ## Start local Kubernetes + Neutron if none is configured, install the CRD, run the controller.
	hack/run-local.sh $(BIN)

.PHONY: test
test: verify unit e2e ## Everything CI runs.

.PHONY: verify
verify: ## gofmt, go vet, generated code and vendor/ up to date.
	hack/verify-gofmt.sh
	go vet ./...
	go vet -tags e2e ./test/...
	hack/verify-codegen.sh
	hack/verify-vendor.sh

.PHONY: unit
unit: ## Unit tests (fake clientset, fake Neutron driver), with the race detector.
	go test -race -count=1 ./...

.PHONY: e2e
e2e: ## End-to-end tests on a real kube-apiserver and a real neutron-server.
	hack/e2e.sh

.PHONY: codegen
codegen: ## Regenerate deepcopy, clientset, listers and informers after changing pkg/apis.
	hack/update-codegen.sh

.PHONY: image
image: ## Build the container image (needs a Docker engine).
	docker build -t network-controller:latest .

.PHONY: stop
stop: ## Stop the local Kubernetes and Neutron started by make run.
	hack/local-kube.sh stop
	hack/local-neutron.sh stop
