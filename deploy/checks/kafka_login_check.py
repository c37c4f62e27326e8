"""Nobody reaches Kafka without a login, in compose and in a rendered Kubernetes overlay: the rules a
schema validator cannot see.

- The broker's settings (deploy/kafka/broker.properties): every listener is SASL_SSL, except a SASL
  (never PLAINTEXT) listener bound to loopback (the KRaft controller's); an authorizer denies what no
  ACL allows.
- compose: the kafka service runs deploy/kafka/start-broker.sh with those settings, not the image's
  KAFKA_* listeners; every other service that uses Kafka (any WEFT_KAFKA_* setting, a --kafka argument,
  or waiting on kafka or kafka-setup) logs in: SASL_SSL to 9093, as a principal of contracts/topics.json,
  with a password and a CA file that is mounted; gnmic's Kafka output logs in (gnmic_login_check's
  rules on its config) with the password its environment names.
- Kubernetes: every container whose environment (env and envFrom ConfigMaps) has a WEFT_KAFKA_* setting
  logs in the same way, its password from a Secret (secretKeyRef, or a file mounted from a Secret volume); the
  broker runs start-broker.sh; no Service, container or NetworkPolicy offers or opens plaintext 9092.

    docker-compose config | python3 deploy/checks/kafka_login_check.py compose
    kustomize build deploy/k8s/overlays/dev | python3 deploy/checks/kafka_login_check.py k8s
"""
import json
import os
import posixpath
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gnmic_login_check import ROOT, output_problems  # noqa: E402

KAFKA_IMAGE = "apache/kafka:"
KAFKA_SCRIPTS = ("make-certs.sh", "start-broker.sh", "setup.sh")
LOOPBACK = {"127.0.0.1", "localhost", "[::1]"}
# The image's own listener settings would replace broker.properties' (its entrypoint maps KAFKA_* to them).
LISTENER_ENV = {"KAFKA_LISTENERS", "KAFKA_ADVERTISED_LISTENERS", "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP"}


def properties(text):
    out = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            k, v = line.split("=", 1)
            out[k.strip()] = v.strip()
    return out


def broker_problems(props):
    bad = []
    protocols = dict(e.split(":", 1) for e in props.get("listener.security.protocol.map", "").split(",") if e)
    for listener in filter(None, props.get("listeners", "").split(",")):
        name, address = listener.split("://", 1)
        host = address.rsplit(":", 1)[0]
        protocol = protocols.get(name, name)
        if protocol == "SASL_SSL":
            continue
        if protocol == "SASL_PLAINTEXT" and host in LOOPBACK:
            continue
        bad.append(f"broker: listener {listener} is {protocol}: only SASL_SSL, or SASL on loopback")
    if not props.get("authorizer.class.name"):
        bad.append("broker: no authorizer.class.name: every login could do anything")
    if props.get("allow.everyone.if.no.acl.found", "false").lower() != "false":
        bad.append("broker: allow.everyone.if.no.acl.found is not false")
    return bad


def port(address):
    return str(address).rsplit(":", 1)[-1]


def login_problems(who, env, mounts, principals, password_from_secret=None):
    """env: the client's resolved environment; mounts: {mount path: from a secret}."""
    bad = []
    if env.get("WEFT_KAFKA_SECURITY_PROTOCOL") != "SASL_SSL":
        bad.append(f"{who}: WEFT_KAFKA_SECURITY_PROTOCOL is {env.get('WEFT_KAFKA_SECURITY_PROTOCOL')!r}, want SASL_SSL")
    if env.get("WEFT_KAFKA_USERNAME") not in principals:
        bad.append(f"{who}: WEFT_KAFKA_USERNAME {env.get('WEFT_KAFKA_USERNAME')!r} is no principal of contracts/topics.json")
    pw_file = env.get("WEFT_KAFKA_PASSWORD_FILE")
    if pw_file:
        if posixpath.dirname(pw_file) not in mounts:
            bad.append(f"{who}: nothing mounted at {posixpath.dirname(pw_file)} for WEFT_KAFKA_PASSWORD_FILE")
        elif password_from_secret is not None and not mounts[posixpath.dirname(pw_file)]:
            bad.append(f"{who}: WEFT_KAFKA_PASSWORD_FILE is not mounted from a Secret")
    elif not env.get("WEFT_KAFKA_PASSWORD"):
        bad.append(f"{who}: no WEFT_KAFKA_PASSWORD or WEFT_KAFKA_PASSWORD_FILE")
    elif password_from_secret is False:
        bad.append(f"{who}: WEFT_KAFKA_PASSWORD is not set from a Secret")
    ca = env.get("WEFT_KAFKA_CA_FILE")
    if not ca:
        bad.append(f"{who}: no WEFT_KAFKA_CA_FILE: the broker's certificate would not be checked against its CA")
    elif posixpath.dirname(ca) not in mounts:
        bad.append(f"{who}: nothing mounted at {posixpath.dirname(ca)} for WEFT_KAFKA_CA_FILE")
    if "WEFT_KAFKA_BOOTSTRAP" in env and port(env["WEFT_KAFKA_BOOTSTRAP"]) != "9093":
        bad.append(f"{who}: WEFT_KAFKA_BOOTSTRAP {env['WEFT_KAFKA_BOOTSTRAP']} is not the TLS + SCRAM listener (9093)")
    return bad


def args_of(svc, key):
    cmd = svc.get("command") or svc.get("args") or []
    return [cmd[i + 1] for i, a in enumerate(cmd[:-1]) if a == key] if isinstance(cmd, list) else []


def compose_problems(services, props, gnmic_cfg, catalogue):
    principals = {p["principal"] for p in catalogue["principals"]}
    bad = [f"compose {b}" for b in broker_problems(props)]
    for name, svc in services.items():
        env = {k: ("" if v is None else str(v)) for k, v in (svc.get("environment") or {}).items()}
        entry = " ".join(map(str, svc.get("entrypoint") or []))
        if str(svc.get("image", "")).startswith(KAFKA_IMAGE):
            if not any(s in entry for s in KAFKA_SCRIPTS):
                bad.append(f"compose {name}: a Kafka image not running deploy/kafka's scripts "
                           "(its own entrypoint would start a plaintext broker)")
            for k in LISTENER_ENV & set(env):
                bad.append(f"compose {name}: {k} overrides deploy/kafka/broker.properties")
            continue
        mounts = {str(v.get("target") if isinstance(v, dict) else str(v).split(":")[1]): True
                  for v in svc.get("volumes") or []}
        waits = set(svc.get("depends_on") or {})
        if name == "gnmic":
            ref, out_bad = output_problems(gnmic_cfg, catalogue)
            bad += [f"compose gnmic: {b}" for b in out_bad]
            if ref and not env.get(ref.group(1)):
                bad.append(f"compose gnmic: {ref.group(1)} is not set")
            ca = ((gnmic_cfg["outputs"]["weft-kafka"].get("tls") or {}).get("ca-file") or "")
            if ca and posixpath.dirname(ca) not in mounts:
                bad.append(f"compose gnmic: nothing mounted at {posixpath.dirname(ca)} for the CA file")
            continue
        kafka_args = args_of(svc, "--kafka")
        if not (any(k.startswith("WEFT_KAFKA_") for k in env) or kafka_args or waits & {"kafka", "kafka-setup"}):
            continue
        bad += [f"compose {b}" for b in login_problems(name, env, mounts, principals)]
        bad += [f"compose {name}: --kafka {a} is not the TLS + SCRAM listener (9093)"
                for a in kafka_args if port(a) != "9093"]
    return bad


def k8s_problems(docs, props, catalogue):
    principals = {p["principal"] for p in catalogue["principals"]}
    docs = [d for d in docs if d]
    configmaps = {d["metadata"]["name"]: d.get("data") or {} for d in docs if d["kind"] == "ConfigMap"}
    bad = []
    for d in docs:
        kind, name = d["kind"], d["metadata"]["name"]
        if kind == "NetworkPolicy":
            for rule in d["spec"].get("egress", []) + d["spec"].get("ingress", []):
                if any(p.get("port") == 9092 for p in rule.get("ports", [])):
                    bad.append(f"NetworkPolicy {name}: opens plaintext Kafka 9092")
        if kind == "Service" and any(p.get("port") == 9092 for p in d["spec"].get("ports", [])):
            bad.append(f"Service {name}: offers plaintext Kafka 9092")
        if kind not in ("Deployment", "StatefulSet", "DaemonSet", "Job"):
            continue
        spec = d["spec"]["template"]["spec"]
        volumes = {v["name"]: ("secret" in v or "projected" in v) for v in spec.get("volumes", [])}
        for c in spec.get("initContainers", []) + spec.get("containers", []):
            who = f"{kind}/{name} container {c['name']}"
            env, secret_env = {}, {}
            for src in c.get("envFrom", []):
                env.update(configmaps.get((src.get("configMapRef") or {}).get("name"), {}))
            for e in c.get("env", []):
                env[e["name"]] = e.get("value", "<from " + ",".join(e.get("valueFrom", {})) + ">")
                secret_env[e["name"]] = "secretKeyRef" in e.get("valueFrom", {})
            if any(p.get("containerPort") == 9092 for p in c.get("ports", [])):
                bad.append(f"{who}: listens on plaintext Kafka 9092")
            if str(c.get("image", "")).startswith(KAFKA_IMAGE):
                cmd = " ".join(map(str, (c.get("command") or []) + (c.get("args") or [])))
                if kind != "Job" and "start-broker.sh" not in cmd:
                    bad.append(f"{who}: a Kafka broker not started by deploy/kafka/start-broker.sh")
                for k in LISTENER_ENV & set(env):
                    bad.append(f"{who}: {k} overrides deploy/kafka/broker.properties")
                continue
            # gnmic reads only its config's ${WEFT_KAFKA_PASSWORD}: gnmic_login_check holds its rules.
            if "/gnmic:" in str(c.get("image", "")) or not any(k.startswith("WEFT_KAFKA_") for k in env):
                continue
            mounts = {m["mountPath"]: volumes.get(m["name"], False) for m in c.get("volumeMounts", [])}
            bad += login_problems(who, env, mounts, principals, secret_env.get("WEFT_KAFKA_PASSWORD", False))
    if any(d["kind"] == "StatefulSet" and "kafka" in d["metadata"]["name"] for d in docs):
        bad += broker_problems(props)
    return bad


def main(args):
    catalogue = json.load(open(os.path.join(ROOT, "contracts", "topics.json")))
    props = properties(open(os.path.join(ROOT, "deploy", "kafka", "broker.properties")).read())
    if args[:1] == ["compose"]:
        gnmic = yaml.safe_load(open(os.path.join(ROOT, "deploy", "gnmic", "gnmic.yaml")))
        bad = compose_problems(yaml.safe_load(sys.stdin)["services"], props, gnmic, catalogue)
    elif args[:1] == ["k8s"]:
        bad = k8s_problems(list(yaml.safe_load_all(sys.stdin)), props, catalogue)
    else:
        sys.exit("usage: kafka_login_check.py compose|k8s [label] < rendered.yaml")
    label = " ".join(args)
    for b in bad:
        print(f"kafka login ({label}):", b)
    if not bad:
        print(f"kafka login ({label}): every client logs in with SCRAM over TLS, no plaintext listener: ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
