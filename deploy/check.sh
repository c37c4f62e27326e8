#!/usr/bin/env bash
# Offline checks of the deployment files: compose schema and interpolation, k8s manifests parse
# and carry the fields every object needs. No containers are started (no Docker engine here).
set -euo pipefail
cd "$(dirname "$0")/.."
# Secrets come from .env: config must pass with the example file and refuse to render without it.
docker-compose -f docker-compose.yml --env-file deploy/.env.example config -q
if env -u WEFT_DB_PASSWORD -u WEFT_TOKENS -u GNMIC_USERNAME -u GNMIC_PASSWORD \
    docker-compose -f docker-compose.yml --env-file /dev/null config -q 2>/dev/null; then
  echo "docker-compose.yml: renders without WEFT_DB_PASSWORD etc.: secrets are not required"; exit 1
fi
echo "docker-compose.yml: ok"
# Image definitions: the checker's own tests (planted violations) first, then every Dockerfile.
/usr/bin/python3 -m unittest -q deploy/checks/test_dockerfile_lint.py
/usr/bin/python3 deploy/checks/dockerfile_lint.py deploy/docker/*.Dockerfile deploy/nic-agent/Dockerfile
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
