#!/usr/bin/env bash
# Offline checks of the deployment files (no Docker engine and no cluster on the build machines):
# compose renders with the example secrets and refuses to without them; every Dockerfile passes
# the image rules; every kustomize overlay builds and its objects pass the structural rules; the
# generated Strimzi topics and users and the CLI's ACLs match contracts/topics.json; the gnmic configs
# agree; every Kafka client logs in (SCRAM over TLS) and no plaintext Kafka listener exists.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=/usr/bin/python3
# The kustomize CLI whose API (v0.21.2) builds with this Go; v0.21.3 needs a newer toolchain.
KUSTOMIZE=sigs.k8s.io/kustomize/kustomize/v5@v5.8.2
# Kubernetes JSON schemas for the built-in kinds: the PyPI package kubernetes-validate ships them
# (kubeconform's cannot be downloaded here). Validated against K8S_VERSION, strict (unknown fields fail).
KUBERNETES_VALIDATE=1.37.0
K8S_VERSION=1.33.0
WEFT_STATE="${WEFT_STATE:-$PWD/.weft}"
venv="$WEFT_STATE/venv-kubernetes-validate"
if ! "$venv/bin/kubernetes-validate" --version 2>/dev/null | grep -qx "$KUBERNETES_VALIDATE"; then
  echo "deploy: installing kubernetes-validate $KUBERNETES_VALIDATE (PyPI, into $venv)" >&2
  if ! $PY -m venv "$venv" >/dev/null 2>&1; then
    # Debian's python3 keeps venv in a package of its own.
    [ "$(id -u)" = 0 ] || { echo "python3 cannot make a venv; install: apt-get install -y python3-venv" >&2; exit 2; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    $PY -m venv "$venv"
  fi
  "$venv/bin/pip" install -q --disable-pip-version-check "kubernetes-validate==$KUBERNETES_VALIDATE"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
docker-compose -f docker-compose.yml --env-file deploy/.env.example config -q
if env -u WEFT_DB_PASSWORD -u WEFT_SCHEDULER_DB_PASSWORD -u WEFT_COLLECTOR_DB_PASSWORD -u WEFT_TOKENS -u GNMIC_USERNAME -u GNMIC_PASSWORD \
    -u WEFT_KAFKA_ADMIN_PASSWORD -u WEFT_KAFKA_KEYSTORE_PASSWORD -u WEFT_KAFKA_CONTROLLER_PASSWORD \
    -u WEFT_KAFKA_SCHEDULER_API_PASSWORD -u WEFT_KAFKA_TELEMETRY_COLLECTOR_PASSWORD -u WEFT_KAFKA_GNMIC_PASSWORD \
    docker-compose -f docker-compose.yml --env-file /dev/null config -q 2>/dev/null; then
  echo "docker-compose.yml: renders without WEFT_DB_PASSWORD etc.: secrets are not required"; exit 1
fi
# What compose exposes and runs: only the operator's ports on the host, pinned images, and a
# healthcheck on every long-running Weft service (the others wait on it or are probed by it).
docker-compose -f docker-compose.yml --env-file deploy/.env.example --profile standalone --profile onos \
    config >"$tmp/compose.yaml"
$PY - "$tmp/compose.yaml" <<'PYCHECK'
import re, sys, yaml
services = yaml.safe_load(open(sys.argv[1]))["services"]
operator_ports = {"8080": "web-ui", "8082": "scheduler-api", "8282": "weft-controller", "8181": "onos"}
# gnmic's image has no shell to probe with; web-ui's image carries its own HEALTHCHECK.
own_health = {"gnmic", "web-ui"}
bad = []
for name, svc in services.items():
    for p in svc.get("ports", []):
        host = str(p["published"]) if isinstance(p, dict) else str(p).split(":")[-2]
        if operator_ports.get(host) != name:
            bad.append(f"{name}: publishes host port {host}; only {operator_ports} are for operators")
    image = svc.get("image", "")
    tag = image.rsplit(":", 1)[1] if ":" in image.split("/")[-1] else ""
    if not re.search(r"\d", tag) or tag == "latest":
        bad.append(f"{name}: image {image!r} is not pinned by version")
    if svc.get("restart") == "unless-stopped" and "healthcheck" not in svc and name not in own_health:
        bad.append(f"{name}: long-running service without a healthcheck")
for b in bad:
    print("docker-compose.yml:", b)
sys.exit(1 if bad else 0)
PYCHECK
echo "docker-compose.yml: ok"
$PY deploy/checks/kafka_login_check.py compose <"$tmp/compose.yaml"

# The checkers' own tests plant each violation first, so a rule that stops matching fails here.
$PY -m unittest -q deploy/checks/test_dockerfile_lint.py deploy/checks/test_k8s_check.py \
    deploy/checks/test_gnmic_login_check.py deploy/checks/test_kafka_login_check.py
$PY deploy/checks/dockerfile_lint.py deploy/docker/*.Dockerfile deploy/nic-agent/Dockerfile

for overlay in deploy/k8s/overlays/*/ deploy/k8s/onos/; do
  [ -f "$overlay/kustomization.yaml" ] || continue
  name=$(basename "$overlay")
  rendered="$tmp/$name.yaml"
  GOFLAGS='' go run "$KUSTOMIZE" build "$overlay" >"$rendered"
  # Built-in kinds against the schemas; CRD kinds (Strimzi, CloudNativePG, ServiceMonitor) have
  # none here and are skipped (--no-warn), the structural check below still reads them.
  "$venv/bin/kubernetes-validate" --strict --quiet --no-warn -k "$K8S_VERSION" "$rendered"
  echo "k8s/$name: schemas (Kubernetes $K8S_VERSION, strict): ok"
  $PY deploy/checks/k8s_check.py "k8s/$name" <"$rendered"
  $PY deploy/checks/kafka_login_check.py k8s "$name" <"$rendered"
done
# gnmic logs in to Kafka (SCRAM over TLS, password from a secret) and 9092 stays closed, in both overlays.
for overlay in dev prod; do $PY deploy/checks/gnmic_login_check.py <"$tmp/$overlay.yaml"; done
$PY deploy/k8s/gen-kafka-topics.py --check
$PY deploy/k8s/gen-kafka-users.py --check

# compose's gnmic config and the k8s one differ only in their targets (switch addresses).
$PY - <<'PYCHECK'
import sys, yaml
a = yaml.safe_load(open("deploy/gnmic/gnmic.yaml"))
b = yaml.safe_load(open("deploy/k8s/base/gnmic/gnmic.yaml"))
if sorted(a["targets"]) != sorted(b["targets"]):
    sys.exit("gnmic: the two configs name different targets: "
             f"{sorted(a['targets'])} vs {sorted(b['targets'])}")
a.pop("targets"); b.pop("targets")
if a != b:
    sys.exit("gnmic: deploy/gnmic/gnmic.yaml and deploy/k8s/base/gnmic/gnmic.yaml differ beyond targets")
out = a["outputs"]["weft-kafka"]
if (out["type"], out["format"], out["topic"]) != ("kafka", "event", "weft.telemetry.interfaces"):
    sys.exit(f"gnmic: output must be kafka/event to weft.telemetry.interfaces, got {out}")
print("gnmic: ok")
PYCHECK
