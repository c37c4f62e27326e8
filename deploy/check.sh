#!/usr/bin/env bash
# Offline checks of the deployment files: compose schema and interpolation, k8s manifests parse
# and carry the fields every object needs. No containers are started (no Docker engine here).
set -euo pipefail
cd "$(dirname "$0")/.."
docker-compose -f docker-compose.yml config -q
echo "docker-compose.yml: ok"
/usr/bin/python3 - <<'PY'
import glob, sys, yaml
bad = 0
for path in sorted(glob.glob("deploy/k8s/*.yaml")):
    for i, doc in enumerate(yaml.safe_load_all(open(path))):
        if doc is None:
            continue
        if path.endswith("kustomization.yaml"):
            for r in doc.get("resources", []):
                if not glob.glob("deploy/k8s/" + r):
                    print(f"{path}: resource {r} does not exist"); bad += 1
            continue
        for field in ("apiVersion", "kind", "metadata"):
            if field not in doc:
                print(f"{path} doc {i}: missing {field}"); bad += 1
        if "name" not in doc.get("metadata", {}):
            print(f"{path} doc {i}: metadata.name missing"); bad += 1
        spec = doc.get("spec", {})
        sel = spec.get("selector", {}).get("matchLabels")
        tpl = spec.get("template", {}).get("metadata", {}).get("labels")
        if sel is not None and tpl is not None and any(tpl.get(k) != v for k, v in sel.items()):
            print(f"{path} doc {i}: selector does not match template labels"); bad += 1
print("deploy/k8s: ok" if not bad else f"deploy/k8s: {bad} problem(s)")
sys.exit(1 if bad else 0)
PY
