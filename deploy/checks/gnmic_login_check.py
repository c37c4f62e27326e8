"""gnmic's Kafka login in a rendered overlay (the output of `kustomize build`), the rules a schema
validator cannot see:

- the gnmic config in the gnmic-config ConfigMap equals the base one (deploy/k8s/base/gnmic/gnmic.yaml)
  except for `log` and its Kafka output's address, `sasl`, `tls` and `enable-metrics`;
- that output logs in: SCRAM-SHA-512 as a principal of contracts/topics.json that writes the output's
  topic, over TLS verified against a CA file (never skip-verify), to port 9093;
- it keys its records (`insert-key: true`: each switch's samples on one partition, see contracts/topics.md);
- its password is only an environment reference, `${NAME}`, and the gnmic Deployment sets NAME from a
  secret; the CA file's folder is mounted; gnmic does not log (its Kafka output logs its settings,
  password included);
- no NetworkPolicy opens the plaintext Kafka port 9092.

    kustomize build deploy/k8s/overlays/dev | python3 deploy/checks/gnmic_login_check.py   (dev and prod)
"""
import json
import os
import posixpath
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUTPUT = "weft-kafka"
# What prod may change in the base config: everything else must stay as the base says.
MAY_DIFFER = ("address", "sasl", "tls", "enable-metrics")


def gnmic_config(docs):
    for d in docs:
        if d["kind"] == "ConfigMap" and d["metadata"]["name"].startswith("gnmic-config"):
            return yaml.safe_load(d["data"]["gnmic.yaml"])
    return None


def gnmic_container(docs):
    for d in docs:
        if d["kind"] == "Deployment" and d["metadata"]["name"] == "gnmic":
            spec = d["spec"]["template"]["spec"]
            return next(c for c in spec["containers"] if c["name"] == "gnmic")
    return None


def without_login(cfg):
    cfg = json.loads(json.dumps(cfg))
    cfg.pop("log", None)
    for key in MAY_DIFFER:
        cfg["outputs"][OUTPUT].pop(key, None)
    return cfg


def output_problems(cfg, catalogue):
    """The rules on gnmic's own config (compose's too): its Kafka output logs in as a writer of its topic
    with SCRAM-SHA-512, over verified TLS to 9093, the password an ${NAME} reference; gnmic does not log.
    Returns (the reference's match or None, problems)."""
    bad = []
    out = cfg["outputs"][OUTPUT]
    sasl, tls = out.get("sasl") or {}, out.get("tls") or {}
    if str(sasl.get("mechanism", "")).upper() != "SCRAM-SHA-512":
        bad.append(f"output {OUTPUT}: sasl.mechanism {sasl.get('mechanism')!r}, want SCRAM-SHA-512")
    writers = {w for t in catalogue["topics"] if t["name"] == out.get("topic") for w in t["writers"]}
    if sasl.get("user") not in writers:
        bad.append(f"output {OUTPUT}: sasl.user {sasl.get('user')!r} is no writer of {out.get('topic')} "
                   "in contracts/topics.json")
    env_ref = re.fullmatch(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", str(sasl.get("password", "")))
    if not env_ref:
        bad.append(f"output {OUTPUT}: sasl.password must be an environment reference ${{NAME}}, not a value")
    if not tls.get("ca-file") or tls.get("skip-verify"):
        bad.append(f"output {OUTPUT}: tls needs a ca-file and no skip-verify")
    if not str(out.get("address", "")).endswith(":9093"):
        bad.append(f"output {OUTPUT}: address {out.get('address')!r} is not the TLS + SCRAM listener (9093)")
    if cfg.get("log"):
        bad.append("gnmic logs: its Kafka output would log the SASL password")
    if out.get("insert-key") is not True:
        # Without a key gnmic's producer scatters one port's samples over random partitions, so
        # collector tasks see pieces of one counter's series and compute wrong rates.
        bad.append(f"output {OUTPUT}: insert-key must be true (records keyed by switch, one partition each)")
    return env_ref, bad


def check(docs, base, catalogue):
    docs = [d for d in docs if d]
    cfg = gnmic_config(docs)
    if cfg is None:
        return ["no gnmic-config ConfigMap"]
    bad = []
    if without_login(cfg) != without_login(base):
        bad.append("gnmic config differs from deploy/k8s/base/gnmic/gnmic.yaml beyond log and the output's login")
    env_ref, out_bad = output_problems(cfg, catalogue)
    bad += out_bad
    tls = cfg["outputs"][OUTPUT].get("tls") or {}
    container = gnmic_container(docs)
    if container is None:
        bad.append("no gnmic Deployment")
    else:
        if env_ref:
            env = {e["name"]: e for e in container.get("env", [])}
            ref = env.get(env_ref.group(1), {}).get("valueFrom", {}).get("secretKeyRef")
            if not ref:
                bad.append(f"gnmic: {env_ref.group(1)} is not set from a secret")
        mounts = {m["mountPath"] for m in container.get("volumeMounts", [])}
        if tls.get("ca-file") and posixpath.dirname(tls["ca-file"]) not in mounts:
            bad.append(f"gnmic: nothing mounted at {posixpath.dirname(tls['ca-file'])} for the CA file")
    for d in docs:
        if d["kind"] != "NetworkPolicy":
            continue
        for rule in d["spec"].get("egress", []) + d["spec"].get("ingress", []):
            if any(p.get("port") == 9092 for p in rule.get("ports", [])):
                bad.append(f"NetworkPolicy {d['metadata']['name']}: opens plaintext Kafka 9092")
    return bad


def main():
    base = yaml.safe_load(open(os.path.join(ROOT, "deploy", "k8s", "base", "gnmic", "gnmic.yaml")))
    catalogue = json.load(open(os.path.join(ROOT, "contracts", "topics.json")))
    bad = check(list(yaml.safe_load_all(sys.stdin)), base, catalogue)
    for b in bad:
        print("gnmic login:", b)
    if not bad:
        print("gnmic login: SCRAM-SHA-512 over TLS on 9093, password from a secret, records keyed: ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
