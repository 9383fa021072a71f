{{/*
Names, labels, images and the derived settings (ZooKeeper connect string, listeners, broker
properties) shared by the templates.
*/}}

{{- define "tributary.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* "<release>-<chart>", or the release name when it contains the chart name. */}}
{{- define "tributary.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "tributary.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels of every resource. */}}
{{- define "tributary.labels" -}}
helm.sh/chart: {{ include "tributary.chart" . }}
{{ include "tributary.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: tributary
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "tributary.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tributary.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* Labels of a component's resources; call with (dict "context" $ "component" "broker"). */}}
{{- define "tributary.componentLabels" -}}
{{ include "tributary.labels" .context }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Selector labels of a component's pods; call with (dict "context" $ "component" "broker"). */}}
{{- define "tributary.componentSelectorLabels" -}}
{{ include "tributary.selectorLabels" .context }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "tributary.broker.fullname" -}}
{{- printf "%s-broker" (include "tributary.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "tributary.broker.headlessServiceName" -}}
{{- printf "%s-broker-headless" (include "tributary.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "tributary.zookeeper.fullname" -}}
{{- printf "%s-zookeeper" (include "tributary.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "tributary.zookeeper.headlessServiceName" -}}
{{- printf "%s-zookeeper-headless" (include "tributary.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "tributary.restProxy.fullname" -}}
{{- printf "%s-rest-proxy" (include "tributary.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "tributary.restProxy.headlessServiceName" -}}
{{- printf "%s-rest-proxy-headless" (include "tributary.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "tributary.adminUi.fullname" -}}
{{- printf "%s-admin-ui" (include "tributary.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Image of a Tributary app; call with (dict "context" $ "repository" .Values.broker.image.repository). */}}
{{- define "tributary.image" -}}
{{- $registry := .context.Values.image.registry | trimSuffix "/" -}}
{{- $tag := .context.Values.image.tag | default .context.Chart.AppVersion -}}
{{- if $registry -}}
{{- printf "%s/%s:%s" $registry .repository $tag -}}
{{- else -}}
{{- printf "%s:%s" .repository $tag -}}
{{- end -}}
{{- end -}}

{{- define "tributary.imagePullSecrets" -}}
imagePullSecrets:
{{- range .Values.image.pullSecrets }}
  - name: {{ . }}
{{- end }}
{{- end -}}

{{/*
Pod anti-affinity from a preset; call with (dict "context" $ "component" "broker" "preset" "soft").
*/}}
{{- define "tributary.podAntiAffinity" -}}
{{- if eq .preset "hard" }}
podAntiAffinity:
  requiredDuringSchedulingIgnoredDuringExecution:
    - topologyKey: kubernetes.io/hostname
      labelSelector:
        matchLabels:
          {{- include "tributary.componentSelectorLabels" (dict "context" .context "component" .component) | nindent 10 }}
{{- else if eq .preset "soft" }}
podAntiAffinity:
  preferredDuringSchedulingIgnoredDuringExecution:
    - weight: 100
      podAffinityTerm:
        topologyKey: kubernetes.io/hostname
        labelSelector:
          matchLabels:
            {{- include "tributary.componentSelectorLabels" (dict "context" .context "component" .component) | nindent 12 }}
{{- end }}
{{- end -}}

{{/* storageClassName of a PVC: "" leaves the cluster's default, "-" asks for none. */}}
{{- define "tributary.storageClass" -}}
{{- if eq . "-" }}
storageClassName: ""
{{- else if . }}
storageClassName: {{ . | quote }}
{{- end }}
{{- end -}}

{{/* The FQDN suffix of a Service in this namespace: "<service>.<namespace>.svc.<cluster domain>". */}}
{{- define "tributary.serviceDomain" -}}
{{- printf "%s.%s.svc.%s" .service .context.Release.Namespace .context.Values.clusterDomain -}}
{{- end -}}

{{/* ZooKeeper connect string: the in-chart servers, or externalZookeeper.servers. */}}
{{- define "tributary.zookeeper.connect" -}}
{{- if .Values.zookeeper.enabled -}}
{{- $servers := list -}}
{{- $domain := include "tributary.serviceDomain" (dict "context" . "service" (include "tributary.zookeeper.headlessServiceName" .)) -}}
{{- range $i := until (int .Values.zookeeper.replicaCount) -}}
{{- $servers = append $servers (printf "%s-%d.%s:%d" (include "tributary.zookeeper.fullname" $) $i $domain (int $.Values.zookeeper.containerPorts.client)) -}}
{{- end -}}
{{- join "," $servers -}}
{{- else -}}
{{- join "," .Values.externalZookeeper.servers -}}
{{- end -}}
{{- end -}}

{{/* A value of a properties file: integers stay integers (Helm reads YAML numbers as floats). */}}
{{- define "tributary.propertyValue" -}}
{{- if and (kindIs "float64" .) (eq . (float64 (int64 .))) -}}
{{- int64 . -}}
{{- else -}}
{{- . -}}
{{- end -}}
{{- end -}}

{{/* A broker setting of broker.config, or its default when not set; call with (dict "context" $ "key" "..." "default" "..."). */}}
{{- define "tributary.broker.setting" -}}
{{- $config := .context.Values.broker.config -}}
{{- if hasKey $config .key -}}
{{- include "tributary.propertyValue" (get $config .key) -}}
{{- else -}}
{{- .default -}}
{{- end -}}
{{- end -}}

{{/* Kafka settings the chart derives from other values; broker.config may not set them. */}}
{{- define "tributary.broker.managedSettings" -}}
{{- list "broker.id" "node.id" "listeners" "advertised.listeners" "listener.security.protocol.map" "inter.broker.listener.name" "zookeeper.connect" "log.dirs" "log.dir" "broker.rack" | toJson -}}
{{- end -}}

{{/*
The external listener's advertised "host:port" of broker $i; call with (dict "context" $ "index" $i).
*/}}
{{- define "tributary.broker.externalAddress" -}}
{{- $ea := .context.Values.externalAccess -}}
{{- $i := int .index -}}
{{- $host := "" -}}
{{- if gt (len $ea.advertisedHosts) $i -}}
{{- $host = index $ea.advertisedHosts $i -}}
{{- end -}}
{{- if eq $ea.service.type "NodePort" -}}
{{- if le (len $ea.service.nodePorts) $i -}}
{{- fail (printf "externalAccess.service.nodePorts needs a node port for each of the %d brokers (broker %d has none)" (int .context.Values.broker.replicaCount) $i) -}}
{{- end -}}
{{- if not $host -}}
{{- $host = $ea.domain -}}
{{- end -}}
{{- if not $host -}}
{{- fail (printf "externalAccess with NodePort needs externalAccess.domain or externalAccess.advertisedHosts[%d]: the address clients reach broker %d's node port at" $i $i) -}}
{{- end -}}
{{- printf "%s:%d" $host (int (index $ea.service.nodePorts $i)) -}}
{{- else -}}
{{- if and (not $host) (gt (len $ea.service.loadBalancerIPs) $i) -}}
{{- $host = index $ea.service.loadBalancerIPs $i -}}
{{- end -}}
{{- if not $host -}}
{{- fail (printf "externalAccess with LoadBalancer needs externalAccess.advertisedHosts[%d] or externalAccess.service.loadBalancerIPs[%d]: the address clients reach broker %d at" $i $i $i) -}}
{{- end -}}
{{- printf "%s:%d" $host (int $ea.service.port) -}}
{{- end -}}
{{- end -}}

{{/*
server.properties lines every broker shares: listeners, ZooKeeper, log directories, rack and
broker.config. Kafka's names; the broker maps them to its broker.* settings.
*/}}
{{- define "tributary.broker.commonProperties" -}}
{{- $kafkaPort := int .Values.broker.containerPorts.kafka -}}
{{- if .Values.externalAccess.enabled }}
listeners=PLAINTEXT://:{{ $kafkaPort }},EXTERNAL://:{{ int .Values.externalAccess.containerPort }}
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,EXTERNAL:PLAINTEXT
{{- else }}
listeners=PLAINTEXT://:{{ $kafkaPort }}
{{- end }}
inter.broker.listener.name=PLAINTEXT
zookeeper.connect={{ include "tributary.zookeeper.connect" . }}
log.dirs={{ .Values.broker.persistence.mountPath | trimSuffix "/" }}/kafka-logs
{{- if .Values.broker.rack }}
broker.rack={{ .Values.broker.rack }}
{{- end }}
{{- range $key, $value := .Values.broker.config }}
{{ $key }}={{ include "tributary.propertyValue" $value }}
{{- end }}
{{- end -}}

{{/*
Checks across values that the schema cannot express; fails the render with what to change.
*/}}
{{- define "tributary.validate" -}}
{{- if and .Values.zookeeper.enabled .Values.externalZookeeper.servers -}}
{{- fail "zookeeper.enabled=true and externalZookeeper.servers are both set: choose the in-chart ensemble or the external one (zookeeper.enabled=false)" -}}
{{- end -}}
{{- if and (not .Values.zookeeper.enabled) (not .Values.externalZookeeper.servers) -}}
{{- fail "zookeeper.enabled=false needs externalZookeeper.servers (without ZooKeeper every broker would start an embedded one of its own)" -}}
{{- end -}}
{{- range $key := (include "tributary.broker.managedSettings" . | fromJsonArray) -}}
{{- if hasKey $.Values.broker.config $key -}}
{{- fail (printf "broker.config.%s is set by the chart (see values.yaml: broker.rack, externalAccess, zookeeper, broker.persistence.mountPath)" $key) -}}
{{- end -}}
{{- end -}}
{{- $brokers := int .Values.broker.replicaCount -}}
{{- /* Unset, all three are 1: the broker jar's application.yml sets the offsets topic's to 1. */ -}}
{{- range $key := list "default.replication.factor" "offsets.topic.replication.factor" "min.insync.replicas" -}}
{{- $value := include "tributary.broker.setting" (dict "context" $ "key" $key "default" "1") | int -}}
{{- if gt $value $brokers -}}
{{- fail (printf "broker.config.%s is %d but there are only %d brokers (broker.replicaCount)" $key $value $brokers) -}}
{{- end -}}
{{- end -}}
{{- $retries := include "tributary.broker.setting" (dict "context" . "key" "controlled.shutdown.max.retries" "default" "3") | int64 -}}
{{- $backoffMs := include "tributary.broker.setting" (dict "context" . "key" "controlled.shutdown.retry.backoff.ms" "default" "5000") | int64 -}}
{{- $boundSeconds := div (mul $retries $backoffMs) 1000 -}}
{{- $grace := int64 .Values.broker.terminationGracePeriodSeconds -}}
{{- if lt $grace (add $boundSeconds 30) -}}
{{- fail (printf "broker.terminationGracePeriodSeconds (%d s) must exceed the controlled shutdown bound, controlled.shutdown.max.retries x controlled.shutdown.retry.backoff.ms (%d s), by at least 30 s for flushing the logs" $grace $boundSeconds) -}}
{{- end -}}
{{- end -}}
