"""Structural checks of rendered Kubernetes objects (the output of `kustomize build`), the rules a
schema validator does not know about:

- every Deployment/DaemonSet/StatefulSet container has readiness and liveness probes, CPU and
  memory requests and a memory limit; Jobs have resources;
- every pod runs as non-root (runAsNonRoot true) unless the workload says why in the annotation
  weft.io/root-reason;
- every Deployment/StatefulSet is covered by a PodDisruptionBudget, or says why not in
  weft.io/no-pdb-reason; DaemonSets need the reason (PDBs do not apply to them);
- selectors match their template's labels; every Service (except ExternalName) and every
  PodDisruptionBudget, NetworkPolicy and ServiceMonitor selects something that exists, and a
  ServiceMonitor's port is a named port of the Service it selects; an Ingress routes only to
  Services and ports that exist;
- every image is pinned by a version tag or digest, never latest or untagged;
- every namespaced object has a namespace.

    kustomize build deploy/k8s/overlays/dev | python3 deploy/checks/k8s_check.py dev
"""
import re
import sys

import yaml

WORKLOADS = {"Deployment", "DaemonSet", "StatefulSet"}
CLUSTER_SCOPED = {"Namespace", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition",
                  "PriorityClass", "StorageClass", "PersistentVolume"}


def matches(selector, labels):
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def pod_spec(doc):
    if doc["kind"] in WORKLOADS or doc["kind"] == "Job":
        return doc.get("spec", {}).get("template", {}).get("spec", {})
    return None


def image_ok(image):
    if "@sha256:" in image:
        return True
    last = image.split("/")[-1]
    if ":" not in last:
        return False
    tag = last.split(":", 1)[1]
    return tag != "latest" and re.search(r"\d", tag) is not None


def check(docs):
    problems = []
    docs = [d for d in docs if d]
    pods = []      # (namespace, labels) of every pod template
    for d in docs:
        if pod_spec(d) is not None:
            pods.append((d["metadata"].get("namespace"), d["spec"]["template"].get("metadata", {}).get("labels", {})))
    services = [d for d in docs if d["kind"] == "Service"]
    pdbs = [d for d in docs if d["kind"] == "PodDisruptionBudget"]

    def has_pod(ns, selector):
        return any(pns == ns and matches(selector, labels) for pns, labels in pods)

    for d in docs:
        kind, meta = d["kind"], d.get("metadata", {})
        where = f"{kind}/{meta.get('name')}"
        ns = meta.get("namespace")
        notes = meta.get("annotations", {}) or {}
        if kind not in CLUSTER_SCOPED and not ns:
            problems.append(f"{where}: metadata.namespace missing")
        spec = pod_spec(d)
        if spec is not None:
            tpl_labels = d["spec"]["template"].get("metadata", {}).get("labels", {})
            sel = d["spec"].get("selector", {}).get("matchLabels")
            if kind != "Job" and not matches(sel, tpl_labels):
                problems.append(f"{where}: spec.selector.matchLabels does not match the template labels")
            pod_sc = spec.get("securityContext", {}) or {}
            for c in spec.get("initContainers", []) + spec.get("containers", []):
                cw = f"{where} container {c.get('name')}"
                if not image_ok(c.get("image", "")):
                    problems.append(f"{cw}: image {c.get('image')!r} is not pinned by version or digest")
                res = c.get("resources", {}) or {}
                if not (res.get("requests", {}) or {}).get("cpu") or not (res.get("requests", {}) or {}).get("memory"):
                    problems.append(f"{cw}: resources.requests.cpu/memory missing")
                if not (res.get("limits", {}) or {}).get("memory"):
                    problems.append(f"{cw}: resources.limits.memory missing")
                if kind in WORKLOADS and c in spec.get("containers", []):
                    for probe in ("readinessProbe", "livenessProbe"):
                        if probe not in c:
                            problems.append(f"{cw}: {probe} missing")
                sc = c.get("securityContext", {}) or {}
                nonroot = sc.get("runAsNonRoot", pod_sc.get("runAsNonRoot"))
                uid = sc.get("runAsUser", pod_sc.get("runAsUser"))
                if (nonroot is not True or uid == 0) and "weft.io/root-reason" not in notes:
                    problems.append(f"{cw}: runs as root (securityContext.runAsNonRoot is not true) "
                                    "and no weft.io/root-reason annotation says why")
            if kind in WORKLOADS:
                covered = any(p["metadata"].get("namespace") == ns and
                              matches(p["spec"].get("selector", {}).get("matchLabels"), tpl_labels) for p in pdbs)
                if kind == "DaemonSet":
                    covered = False
                if not covered and "weft.io/no-pdb-reason" not in notes:
                    problems.append(f"{where}: no PodDisruptionBudget and no weft.io/no-pdb-reason annotation")
        if kind == "Service" and d.get("spec", {}).get("type") != "ExternalName":
            if not has_pod(ns, d.get("spec", {}).get("selector")):
                problems.append(f"{where}: spec.selector selects no pod of this render")
        if kind == "PodDisruptionBudget":
            if not has_pod(ns, d["spec"].get("selector", {}).get("matchLabels")):
                problems.append(f"{where}: spec.selector selects no pod of this render")
        if kind == "NetworkPolicy":
            sel = d["spec"].get("podSelector", {}).get("matchLabels")
            if sel and not has_pod(ns, sel) and "weft.io/selects-external" not in notes:
                problems.append(f"{where}: spec.podSelector selects no pod of this render")
        if kind == "Ingress":
            for rule in d["spec"].get("rules", []):
                for path in rule.get("http", {}).get("paths", []):
                    svc = path["backend"]["service"]
                    found = [x for x in services if x["metadata"]["name"] == svc["name"]
                             and x["metadata"].get("namespace") == ns]
                    port = svc["port"].get("number", svc["port"].get("name"))
                    if not found:
                        problems.append(f"{where}: path {path['path']} routes to unknown Service {svc['name']}")
                    elif not any(port in (p.get("port"), p.get("name")) for p in found[0]["spec"].get("ports", [])):
                        problems.append(f"{where}: path {path['path']} routes to port {port} that Service {svc['name']} lacks")
        if kind == "ServiceMonitor":
            sel = d["spec"].get("selector", {}).get("matchLabels")
            targets = [s for s in services if s["metadata"].get("namespace") == ns
                       and matches(sel, s["metadata"].get("labels", {}) or {})]
            if not targets:
                problems.append(f"{where}: spec.selector selects no Service (Service metadata.labels)")
            for ep in d["spec"].get("endpoints", []):
                if targets and not any(ep.get("port") in [p.get("name") for p in s["spec"].get("ports", [])]
                                       for s in targets):
                    problems.append(f"{where}: endpoint port {ep.get('port')!r} is not a named port of the Service")
    return problems


def main(args):
    label = args[0] if args else "stdin"
    docs = list(yaml.safe_load_all(sys.stdin))
    problems = check(docs)
    for p in problems:
        print(f"{label}: {p}")
    n = sum(1 for d in docs if d)
    print(f"{label}: {n} objects, " + ("ok" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
