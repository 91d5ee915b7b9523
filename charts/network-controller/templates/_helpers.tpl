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

{{/* The chart and its version, as the label helm.sh/chart gives them. */}}
{{- define "network-controller.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
The image the Deployment runs: repository@digest when image.digest is set (the tag then
names nothing), else repository:tag, the tag defaulting to the chart's appVersion.
*/}}
{{- define "network-controller.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion | toString) -}}
{{- end -}}
{{- end -}}

{{/*
app.kubernetes.io/version: the image's tag (the chart's appVersion by default), made a
valid label value (at most 63 characters of [A-Za-z0-9_.-], alphanumeric at both ends).
*/}}
{{- define "network-controller.version" -}}
{{- $tag := .Values.image.tag | default .Chart.AppVersion | toString -}}
{{- regexReplaceAll "[^-A-Za-z0-9_.]" $tag "_" | trunc 63 | trimAll "-_." -}}
{{- end -}}

{{/*
Labels of every object: Kubernetes' recommended labels and Helm's chart label. deploy/,
one install per cluster, has only app.kubernetes.io/name (and component) and selects
without the instance; test/e2e/helm_chart_test.go compares the two renders without the
labels that tell releases apart.
*/}}
{{- define "network-controller.labels" -}}
helm.sh/chart: {{ include "network-controller.chart" . }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ include "network-controller.version" . | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Labels of the controller's Deployment, Service and Pods: those above, and the component. */}}
{{- define "network-controller.controllerLabels" -}}
{{ include "network-controller.labels" . }}
app.kubernetes.io/component: controller
{{- end -}}

{{/*
Labels that select the controller's Pods (Deployment, Service, PDB, NetworkPolicy, the
spread and anti-affinity): with the release's instance, so that two releases in one
namespace never select each other's Pods. A Deployment's selector cannot change: the
Deployment template refuses an upgrade over one that selects otherwise.
*/}}
{{- define "network-controller.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: controller
{{- end -}}

{{/* The Pods' labels: podLabels, and the chart's (which podLabels may not replace). */}}
{{- define "network-controller.podLabels" -}}
{{- $own := include "network-controller.controllerLabels" . | fromYaml -}}
{{- toYaml (merge $own (deepCopy .Values.podLabels)) -}}
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
