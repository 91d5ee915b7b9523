{{/*
The name of every object of the release: the release name when it already contains the
chart's name (a release named network-controller gives the names deploy/ uses), else
<release>-network-controller; fullnameOverride replaces it.
*/}}
{{- define "network-controller.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels of every object: the same as deploy/'s, so both render alike. */}}
{{- define "network-controller.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
{{- end -}}

{{/* Labels that select the controller's Pods (Deployment, Service, PDB, NetworkPolicy). */}}
{{- define "network-controller.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/component: controller
{{- end -}}

{{/* The controller's ServiceAccount as an RBAC subject. */}}
{{- define "network-controller.subject" -}}
- kind: ServiceAccount
  name: {{ include "network-controller.fullname" . }}
  namespace: {{ .Release.Namespace }}
{{- end -}}

{{/*
Namespace of the Secrets of ClusterIdentity objects. The controller may read every Secret
there, so it is never the release's own (values.schema.json refuses kube-system, default
and the like).
*/}}
{{- define "network-controller.identitiesNamespace" -}}
{{- $ns := .Values.clusterIdentities.secretsNamespace | default (printf "%s-identities" (include "network-controller.fullname" .)) -}}
{{- if eq $ns .Release.Namespace -}}
{{- fail (printf "clusterIdentities.secretsNamespace: %q is the release's own namespace, where the controller would read every Secret; set it to a namespace that holds the identities' Secrets alone" $ns) -}}
{{- end -}}
{{- $ns -}}
{{- end -}}

{{/* Rules on Networks and Events, in the ClusterRole or in each watched namespace's Role. */}}
{{- define "network-controller.networkRules" -}}
- apiGroups: ["samplecrd.k8s.io"]
  resources: ["networks"]
  verbs: ["get", "list", "watch", "update", "patch"]
- apiGroups: ["samplecrd.k8s.io"]
  resources: ["networks/status"]
  verbs: ["update", "patch"]
- apiGroups: ["samplecrd.k8s.io"]
  resources: ["networks/finalizers"]
  verbs: ["update"]
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create", "patch"]
{{- end -}}
