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
server.properties lines every broker shares: listeners, ZooKeeper, log directories, rack, the
TLS, SASL and authorization settings that hold no secret, and broker.config. Kafka's names; the
broker maps them to its broker.* settings. Passwords reach the broker through the environment.
*/}}
{{- define "tributary.broker.commonProperties" -}}
{{- $kafkaPort := int .Values.broker.containerPorts.kafka -}}
{{- $client := .Values.broker.listeners.client.protocol -}}
{{- $ib := .Values.broker.listeners.interBroker -}}
{{- $listeners := list (printf "%s://:%d" $client $kafkaPort) -}}
{{- $map := list (printf "%s:%s" $client $client) -}}
{{- if $ib.enabled -}}
{{- $listeners = append $listeners (printf "INTERNAL://:%d" (int $ib.containerPort)) -}}
{{- $map = append $map (printf "INTERNAL:%s" $ib.protocol) -}}
{{- end -}}
{{- if .Values.externalAccess.enabled -}}
{{- $listeners = append $listeners (printf "EXTERNAL://:%d" (int .Values.externalAccess.containerPort)) -}}
{{- $map = append $map (printf "EXTERNAL:%s" .Values.externalAccess.protocol) -}}
{{- end }}
listeners={{ join "," $listeners }}
{{- if gt (len $map) 1 }}
listener.security.protocol.map={{ join "," $map }}
{{- end }}
inter.broker.listener.name={{ include "tributary.broker.interBrokerListenerName" . }}
zookeeper.connect={{ include "tributary.zookeeper.connect" . }}
log.dirs={{ .Values.broker.persistence.mountPath | trimSuffix "/" }}/kafka-logs
{{- if .Values.broker.rack }}
broker.rack={{ .Values.broker.rack }}
{{- end }}
{{- if eq (include "tributary.broker.usesTls" .) "true" }}
{{- $tls := .Values.broker.tls }}
ssl.keystore.type={{ $tls.type }}
ssl.keystore.location={{ include "tributary.broker.tlsDir" . }}/{{ $tls.keystoreKey }}
ssl.truststore.type={{ $tls.type }}
ssl.truststore.location={{ include "tributary.broker.tlsDir" . }}/{{ $tls.truststoreKey }}
ssl.client.auth={{ $tls.clientAuth }}
ssl.endpoint.identification.algorithm={{ $tls.endpointIdentificationAlgorithm }}
ssl.reload.interval.ms={{ int64 $tls.reloadIntervalMs }}
{{- end }}
{{- if eq (include "tributary.broker.usesSasl" .) "true" }}
sasl.enabled.mechanisms={{ join "," .Values.broker.sasl.enabledMechanisms }}
sasl.mechanism.inter.broker.protocol={{ .Values.broker.sasl.interBroker.mechanism }}
{{- end }}
{{- if eq (include "tributary.broker.usesOauthbearer" .) "true" }}
{{- $oauth := .Values.broker.sasl.oauthbearer }}
sasl.oauthbearer.jwks.endpoint.url={{ $oauth.jwksEndpointUrl }}
{{- if $oauth.expectedIssuer }}
sasl.oauthbearer.expected.issuer={{ $oauth.expectedIssuer }}
{{- end }}
{{- if $oauth.expectedAudience }}
sasl.oauthbearer.expected.audience={{ $oauth.expectedAudience }}
{{- end }}
{{- end }}
{{- if .Values.broker.authorization.enabled }}
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
{{- $superUsers := .Values.broker.authorization.superUsers }}
{{- if eq (include "tributary.broker.usesSasl" .) "true" }}
{{- $superUsers = prepend $superUsers (printf "User:%s" .Values.broker.sasl.interBroker.user) }}
{{- end }}
{{- if $superUsers }}
super.users={{ join ";" (uniq $superUsers) }}
{{- end }}
allow.everyone.if.no.acl.found={{ .Values.broker.authorization.allowEveryoneIfNoAclFound }}
{{- end }}
{{- range $key, $value := .Values.broker.config }}
{{ $key }}={{ include "tributary.propertyValue" $value }}
{{- end }}
{{- end -}}

{{/* The listener brokers replicate over: INTERNAL when it is on, else the client listener. */}}
{{- define "tributary.broker.interBrokerListenerName" -}}
{{- if .Values.broker.listeners.interBroker.enabled -}}
INTERNAL
{{- else -}}
{{- .Values.broker.listeners.client.protocol -}}
{{- end -}}
{{- end -}}

{{/* The security protocols of the brokers' listeners, as a JSON list. */}}
{{- define "tributary.broker.protocols" -}}
{{- $protocols := list .Values.broker.listeners.client.protocol -}}
{{- if .Values.broker.listeners.interBroker.enabled -}}
{{- $protocols = append $protocols .Values.broker.listeners.interBroker.protocol -}}
{{- end -}}
{{- if .Values.externalAccess.enabled -}}
{{- $protocols = append $protocols .Values.externalAccess.protocol -}}
{{- end -}}
{{- toJson $protocols -}}
{{- end -}}

{{/* "true" when a listener of the brokers uses TLS (SSL or SASL_SSL). */}}
{{- define "tributary.broker.usesTls" -}}
{{- $protocols := include "tributary.broker.protocols" . | fromJsonArray -}}
{{- or (has "SSL" $protocols) (has "SASL_SSL" $protocols) -}}
{{- end -}}

{{/* "true" when a listener of the brokers uses SASL (SASL_PLAINTEXT or SASL_SSL). */}}
{{- define "tributary.broker.usesSasl" -}}
{{- $protocols := include "tributary.broker.protocols" . | fromJsonArray -}}
{{- or (has "SASL_PLAINTEXT" $protocols) (has "SASL_SSL" $protocols) -}}
{{- end -}}

{{/* "true" when a listener of the brokers uses SASL and OAUTHBEARER is one of its mechanisms. */}}
{{- define "tributary.broker.usesOauthbearer" -}}
{{- and (eq (include "tributary.broker.usesSasl" .) "true") (has "OAUTHBEARER" .Values.broker.sasl.enabledMechanisms) -}}
{{- end -}}

{{/*
The brokers' JVM options: broker.jvmOptions, and with OAUTHBEARER the system property that lets
kafka-clients fetch the issuer's keys from broker.sasl.oauthbearer.jwksEndpointUrl (Kafka 4 refuses
any URL the JVM does not allow).
*/}}
{{- define "tributary.broker.jvmOptions" -}}
{{- if eq (include "tributary.broker.usesOauthbearer" .) "true" -}}
{{- printf "%s -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=%s" .Values.broker.jvmOptions .Values.broker.sasl.oauthbearer.jwksEndpointUrl | trim -}}
{{- else -}}
{{- .Values.broker.jvmOptions -}}
{{- end -}}
{{- end -}}

{{/* Where the brokers' key store and trust store are mounted. */}}
{{- define "tributary.broker.tlsDir" -}}
/etc/tributary-tls
{{- end -}}

{{/*
The SCRAM users the brokers create at start, as a JSON list of {name, secret, key, mechanisms}:
the inter-broker user first, then broker.sasl.users. Empty unless a listener uses SASL.
*/}}
{{- define "tributary.broker.scramUsers" -}}
{{- $users := list -}}
{{- if eq (include "tributary.broker.usesSasl" .) "true" -}}
{{- $sasl := .Values.broker.sasl -}}
{{- $scram := list -}}
{{- range $sasl.enabledMechanisms -}}
{{- if hasPrefix "SCRAM-" . -}}
{{- $scram = append $scram . -}}
{{- end -}}
{{- end -}}
{{- $users = append $users (dict "name" $sasl.interBroker.user "secret" $sasl.interBroker.existingSecret "key" $sasl.interBroker.passwordKey "mechanisms" (list $sasl.interBroker.mechanism)) -}}
{{- range $sasl.users -}}
{{- $users = append $users (dict "name" .name "secret" .existingSecret "key" (default "password" .passwordKey) "mechanisms" (default $scram .mechanisms)) -}}
{{- end -}}
{{- end -}}
{{- toJson $users -}}
{{- end -}}

{{/*
broker.bootstrap-scram-users: Kafka's --add-scram syntax, each password read from the user's
mounted Secret (/etc/tributary-users/<index>/password), so the value holds no secret.
*/}}
{{- define "tributary.broker.bootstrapScramUsers" -}}
{{- $entries := list -}}
{{- range $i, $user := include "tributary.broker.scramUsers" . | fromJsonArray -}}
{{- range $mechanism := $user.mechanisms -}}
{{- $entries = append $entries (printf "%s=[name=\"%s\",password-file=/etc/tributary-users/%d/password]" $mechanism $user.name $i) -}}
{{- end -}}
{{- end -}}
{{- join ";" $entries -}}
{{- end -}}

{{/* broker.bootstrap-acls: one ACL a line, in the broker's bootstrap format (kafka-acls' terms). */}}
{{- define "tributary.broker.bootstrapAcls" -}}
{{- range .Values.broker.authorization.acls }}
{{ printf "principal=%s, host=%s, operation=%s, permission=%s, resource-type=%s, resource-name=%s, pattern-type=%s" .principal (default "*" .host) .operation (default "Allow" .permission) .resourceType (default "kafka-cluster" .resourceName) (default "Literal" .patternType) }}
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
{{- include "tributary.validateSecurity" . -}}
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

{{/*
Checks of the TLS, SASL and authorization values: the Secrets they need are named, secrets stay
out of broker.config (a ConfigMap), and settings the chart derives are not set twice.
*/}}
{{- define "tributary.validateSecurity" -}}
{{- $tls := eq (include "tributary.broker.usesTls" .) "true" -}}
{{- $sasl := eq (include "tributary.broker.usesSasl" .) "true" -}}
{{- range $key := list "ssl.keystore.password" "ssl.truststore.password" "ssl.key.password" "ssl.keystore.key" "sasl.jaas.config" -}}
{{- if hasKey $.Values.broker.config $key -}}
{{- fail (printf "broker.config.%s would put a secret into a ConfigMap: give it through broker.tls / broker.sasl (Secrets), or broker.extraEnv with valueFrom.secretKeyRef" $key) -}}
{{- end -}}
{{- end -}}
{{- range $key, $value := .Values.broker.config -}}
{{- if hasPrefix "listener.name." $key -}}
{{- fail (printf "broker.config.%s: per-listener settings would put JAAS text into a ConfigMap; use broker.sasl" $key) -}}
{{- end -}}
{{- end -}}
{{- $managed := list -}}
{{- if $tls -}}
{{- $managed = concat $managed (list "ssl.keystore.type" "ssl.keystore.location" "ssl.truststore.type" "ssl.truststore.location" "ssl.client.auth" "ssl.endpoint.identification.algorithm" "ssl.reload.interval.ms") -}}
{{- if not .Values.broker.tls.existingSecret -}}
{{- fail "a listener uses SSL or SASL_SSL (broker.listeners, externalAccess.protocol): set broker.tls.existingSecret to the Secret holding the key store and trust store" -}}
{{- end -}}
{{- end -}}
{{- if $sasl -}}
{{- $managed = concat $managed (list "sasl.enabled.mechanisms" "sasl.mechanism.inter.broker.protocol") -}}
{{- if not .Values.broker.sasl.interBroker.existingSecret -}}
{{- fail "a listener uses SASL_PLAINTEXT or SASL_SSL: set broker.sasl.interBroker.existingSecret to the Secret holding the brokers' own password" -}}
{{- end -}}
{{- if not (has .Values.broker.sasl.interBroker.mechanism .Values.broker.sasl.enabledMechanisms) -}}
{{- fail (printf "broker.sasl.interBroker.mechanism %s is not one of broker.sasl.enabledMechanisms" .Values.broker.sasl.interBroker.mechanism) -}}
{{- end -}}
{{- end -}}
{{- include "tributary.validateOauthbearer" . -}}
{{- if and .Values.broker.sasl.users (not $sasl) -}}
{{- fail "broker.sasl.users are created only when a listener uses SASL_PLAINTEXT or SASL_SSL (broker.listeners.client.protocol)" -}}
{{- end -}}
{{- if .Values.broker.authorization.enabled -}}
{{- $managed = concat $managed (list "authorizer.class.name" "super.users" "allow.everyone.if.no.acl.found") -}}
{{- end -}}
{{- if and .Values.broker.authorization.acls (not .Values.broker.authorization.enabled) -}}
{{- fail "broker.authorization.acls need broker.authorization.enabled=true (without an authorizer every request is allowed)" -}}
{{- end -}}
{{- range $key := $managed -}}
{{- if hasKey $.Values.broker.config $key -}}
{{- fail (printf "broker.config.%s is set by the chart from broker.tls, broker.sasl or broker.authorization" $key) -}}
{{- end -}}
{{- end -}}
{{- include "tributary.validateRestProxySecurity" . -}}
{{- end -}}

{{/*
Checks of broker.sasl.oauthbearer: the issuer's keys are named when OAUTHBEARER is on, its values
are not given without it, and its settings are not set twice (broker.config, broker.jvmOptions).
*/}}
{{- define "tributary.validateOauthbearer" -}}
{{- $oauth := .Values.broker.sasl.oauthbearer -}}
{{- if eq (include "tributary.broker.usesOauthbearer" .) "true" -}}
{{- if not $oauth.jwksEndpointUrl -}}
{{- fail "OAUTHBEARER is in broker.sasl.enabledMechanisms: set broker.sasl.oauthbearer.jwksEndpointUrl to the issuer's JWK set URL (the brokers check tokens' signatures with it)" -}}
{{- end -}}
{{- range $key := list "sasl.oauthbearer.jwks.endpoint.url" "sasl.oauthbearer.expected.issuer" "sasl.oauthbearer.expected.audience" -}}
{{- if hasKey $.Values.broker.config $key -}}
{{- fail (printf "broker.config.%s is set by the chart from broker.sasl.oauthbearer" $key) -}}
{{- end -}}
{{- end -}}
{{- if contains "org.apache.kafka.sasl.oauthbearer.allowed.urls" .Values.broker.jvmOptions -}}
{{- fail "broker.jvmOptions sets org.apache.kafka.sasl.oauthbearer.allowed.urls, which the chart sets from broker.sasl.oauthbearer.jwksEndpointUrl" -}}
{{- end -}}
{{- else if or $oauth.jwksEndpointUrl $oauth.expectedIssuer $oauth.expectedAudience -}}
{{- fail "broker.sasl.oauthbearer is used only with OAUTHBEARER in broker.sasl.enabledMechanisms and a SASL listener (broker.listeners.client.protocol SASL_PLAINTEXT or SASL_SSL)" -}}
{{- end -}}
{{- end -}}

{{/*
Checks of the REST proxy's and the admin UI's sign-in and HTTPS values: each side can reach and
sign in to the other, and the Secrets they need are named.
*/}}
{{- define "tributary.validateRestProxySecurity" -}}
{{- if .Values.restProxy.enabled -}}
{{- $client := .Values.broker.listeners.client.protocol -}}
{{- $method := .Values.restProxy.authentication.method -}}
{{- if and (eq $method "basic") (not (hasPrefix "SASL_" $client)) -}}
{{- fail "restProxy.authentication.method=basic checks passwords with the brokers over SASL: broker.listeners.client.protocol must be SASL_PLAINTEXT or SASL_SSL" -}}
{{- end -}}
{{- if eq $method "bearer" -}}
{{- if not (hasPrefix "SASL_" $client) -}}
{{- fail "restProxy.authentication.method=bearer forwards callers' tokens to the brokers over SASL OAUTHBEARER: broker.listeners.client.protocol must be SASL_PLAINTEXT or SASL_SSL" -}}
{{- end -}}
{{- if not (has "OAUTHBEARER" .Values.broker.sasl.enabledMechanisms) -}}
{{- fail "restProxy.authentication.method=bearer forwards callers' tokens to the brokers over SASL OAUTHBEARER: add OAUTHBEARER to broker.sasl.enabledMechanisms (and set broker.sasl.oauthbearer)" -}}
{{- end -}}
{{- end -}}
{{- if and (ne $method "bearer") (or .Values.restProxy.authentication.jwt.jwkSetUri .Values.restProxy.authentication.jwt.issuerUri .Values.restProxy.authentication.jwt.audiences) -}}
{{- fail "restProxy.authentication.jwt is used only with restProxy.authentication.method=bearer" -}}
{{- end -}}
{{- if and .Values.restProxy.tls.enabled (not .Values.restProxy.tls.existingSecret) -}}
{{- fail "restProxy.tls.enabled needs restProxy.tls.existingSecret (the Secret with the HTTPS key store)" -}}
{{- end -}}
{{- if .Values.adminUi.enabled -}}
{{- $ui := .Values.adminUi -}}
{{- if and (eq $method "bearer") (ne $ui.authentication.method "oauth2") -}}
{{- fail (printf "restProxy.authentication.method=bearer takes OAuth2 access tokens only, which adminUi.authentication.method=%s cannot give it: set adminUi.authentication.method=oauth2 (with adminUi.authentication.oauth2) so that users sign in with the provider and the UI forwards their tokens, or set adminUi.enabled=false" $ui.authentication.method) -}}
{{- end -}}
{{- if and (eq $ui.authentication.method "oauth2") (ne $method "bearer") -}}
{{- fail "adminUi.authentication.method=oauth2 forwards each user's access token to the REST proxy as Bearer: set restProxy.authentication.method=bearer (with OAUTHBEARER on the brokers), so that the proxy accepts the tokens" -}}
{{- end -}}
{{- include "tributary.validateAdminUiOauth2" . -}}
{{- if and (eq $ui.authentication.method "basic") (ne $method "basic") -}}
{{- fail "adminUi.authentication.method=basic checks passwords with the REST proxy and forwards them to it: set restProxy.authentication.method=basic (with none the proxy would accept any password)" -}}
{{- end -}}
{{- if and (eq $ui.authentication.method "none") (eq $method "basic") -}}
{{- fail "restProxy.authentication.method=basic refuses calls without a signed-in user: set adminUi.authentication.method=basic so that the admin UI's users sign in and act as themselves" -}}
{{- end -}}
{{- if and .Values.restProxy.tls.enabled (not $ui.restProxyTruststore.existingSecret) -}}
{{- fail "restProxy.tls.enabled: the admin UI calls the proxy over HTTPS and must trust its certificate: set adminUi.restProxyTruststore.existingSecret (a trust store with the CA of restProxy.tls' certificate)" -}}
{{- end -}}
{{- if and $ui.restProxyTruststore.existingSecret (not .Values.restProxy.tls.enabled) -}}
{{- fail "adminUi.restProxyTruststore is used only when the proxy serves HTTPS (restProxy.tls.enabled)" -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The issuer whose tokens the REST proxy accepts (bearer): restProxy.authentication.jwt.issuerUri, else the brokers'. */}}
{{- define "tributary.restProxy.jwtIssuerUri" -}}
{{- .Values.restProxy.authentication.jwt.issuerUri | default .Values.broker.sasl.oauthbearer.expectedIssuer -}}
{{- end -}}

{{/* The audiences the REST proxy requires of tokens (bearer), as a JSON list: restProxy.authentication.jwt.audiences, else the brokers'. */}}
{{- define "tributary.restProxy.jwtAudiences" -}}
{{- .Values.restProxy.authentication.jwt.audiences | default (compact (list .Values.broker.sasl.oauthbearer.expectedAudience)) | toJson -}}
{{- end -}}

{{/* The admin UI's OAuth2 provider (oauth2): adminUi.authentication.oauth2.issuerUri, else the REST proxy's issuer. */}}
{{- define "tributary.adminUi.oauth2IssuerUri" -}}
{{- .Values.adminUi.authentication.oauth2.issuerUri | default (include "tributary.restProxy.jwtIssuerUri" .) -}}
{{- end -}}

{{/*
Checks of adminUi.authentication.oauth2: with oauth2 the client and its Secret are named, and the
provider is the issuer the proxy (and the brokers) trust; without it, its values are not given.
*/}}
{{- define "tributary.validateAdminUiOauth2" -}}
{{- $ui := .Values.adminUi.authentication -}}
{{- $oauth2 := $ui.oauth2 -}}
{{- if eq $ui.method "oauth2" -}}
{{- if not $oauth2.clientId -}}
{{- fail "adminUi.authentication.method=oauth2 needs adminUi.authentication.oauth2.clientId: the admin UI's client at the provider" -}}
{{- end -}}
{{- if not $oauth2.clientSecret.existingSecret -}}
{{- fail "adminUi.authentication.method=oauth2 needs adminUi.authentication.oauth2.clientSecret.existingSecret: the Secret holding the client's secret (key adminUi.authentication.oauth2.clientSecret.key)" -}}
{{- end -}}
{{- $proxyIssuer := include "tributary.restProxy.jwtIssuerUri" . -}}
{{- if not (include "tributary.adminUi.oauth2IssuerUri" .) -}}
{{- fail "adminUi.authentication.method=oauth2 needs the provider's issuer: set adminUi.authentication.oauth2.issuerUri, or the issuer the proxy trusts (restProxy.authentication.jwt.issuerUri or broker.sasl.oauthbearer.expectedIssuer), which it then takes" -}}
{{- end -}}
{{- if and $oauth2.issuerUri $proxyIssuer (ne $oauth2.issuerUri $proxyIssuer) -}}
{{- fail (printf "adminUi.authentication.oauth2.issuerUri %s is not the issuer the REST proxy accepts tokens of (%s, from restProxy.authentication.jwt.issuerUri or broker.sasl.oauthbearer.expectedIssuer): the proxy would refuse every signed-in user's token" $oauth2.issuerUri $proxyIssuer) -}}
{{- end -}}
{{- if and $oauth2.providerSignOut (not (has "openid" $oauth2.scopes)) -}}
{{- fail "adminUi.authentication.oauth2.providerSignOut ends the session at the provider with the user's OpenID Connect ID token: add openid to adminUi.authentication.oauth2.scopes" -}}
{{- end -}}
{{- else if or $oauth2.issuerUri $oauth2.clientId $oauth2.clientSecret.existingSecret $oauth2.providerSignOut -}}
{{- fail "adminUi.authentication.oauth2 is used only with adminUi.authentication.method=oauth2" -}}
{{- end -}}
{{- end -}}
