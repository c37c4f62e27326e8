"""Plants each violation the Kubernetes structural check exists for into a clean render and asserts
it is reported, so a rule that silently stops matching fails the deploy suite.
    python3 -m unittest deploy/checks/test_k8s_check.py
"""
import copy
import os
import sys
import unittest

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from k8s_check import check  # noqa: E402

CLEAN = yaml.safe_load_all("""
apiVersion: v1
kind: Service
metadata: {name: api, namespace: weft, labels: {app: api}}
spec:
  selector: {app: api}
  ports: [{name: http, port: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: weft}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      securityContext: {runAsNonRoot: true, runAsUser: 10001}
      containers:
        - name: api
          image: weft/api:0.1.0
          readinessProbe: {httpGet: {path: /healthz, port: 80}}
          livenessProbe: {httpGet: {path: /healthz, port: 80}}
          resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {memory: 128Mi}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: api, namespace: weft}
spec: {minAvailable: 1, selector: {matchLabels: {app: api}}}
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: api, namespace: weft}
spec:
  selector: {matchLabels: {app: api}}
  endpoints: [{port: http, path: /metrics}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: api, namespace: weft}
spec:
  rules:
    - http:
        paths:
          - {path: /v1/agents/, pathType: Prefix, backend: {service: {name: api, port: {number: 80}}}}
""")
CLEAN = list(CLEAN)


def planted(change):
    docs = copy.deepcopy(CLEAN)
    change({d["kind"]: d for d in docs})
    return "\n".join(check(docs))


def container(k):
    return k["Deployment"]["spec"]["template"]["spec"]["containers"][0]


class K8sCheckTest(unittest.TestCase):
    def test_clean_render_passes(self):
        self.assertEqual(check(copy.deepcopy(CLEAN)), [])

    def test_missing_probe_is_reported(self):
        self.assertIn("livenessProbe missing", planted(lambda k: container(k).pop("livenessProbe")))

    def test_missing_memory_limit_is_reported(self):
        self.assertIn("limits.memory missing", planted(lambda k: container(k)["resources"].pop("limits")))

    def test_root_pod_is_reported_unless_a_reason_is_given(self):
        def root(k):
            k["Deployment"]["spec"]["template"]["spec"]["securityContext"] = {"runAsUser": 0}
        self.assertIn("runs as root", planted(root))

        def root_with_reason(k):
            root(k)
            k["Deployment"]["metadata"]["annotations"] = {"weft.io/root-reason": "needs it"}
        self.assertNotIn("runs as root", planted(root_with_reason))

    def test_latest_and_untagged_images_are_reported(self):
        for image in ("weft/api:latest", "weft/api", "weft/api:stable"):
            def set_image(k, image=image):
                container(k)["image"] = image
            self.assertIn("not pinned", planted(set_image), image)

    def test_workload_without_pdb_or_reason_is_reported(self):
        def drop_pdb(k):
            k["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"] = {"app": "other"}
        out = planted(drop_pdb)
        self.assertIn("no PodDisruptionBudget", out)
        self.assertIn("PodDisruptionBudget/api: spec.selector selects no pod", out)

    def test_service_selecting_no_pod_is_reported(self):
        self.assertIn("Service/api: spec.selector selects no pod",
                      planted(lambda k: k["Service"]["spec"].update(selector={"app": "typo"})))

    def test_selector_not_matching_template_is_reported(self):
        self.assertIn("does not match the template labels",
                      planted(lambda k: k["Deployment"]["spec"]["selector"].update(matchLabels={"app": "x"})))

    def test_service_monitor_on_unknown_port_is_reported(self):
        self.assertIn("not a named port",
                      planted(lambda k: k["ServiceMonitor"]["spec"]["endpoints"][0].update(port="metrics")))

    def test_ingress_to_a_missing_service_or_port_is_reported(self):
        def backend(k):
            return k["Ingress"]["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
        self.assertIn("unknown Service", planted(lambda k: backend(k).update(name="apy")))
        self.assertIn("port 8080 that Service api lacks", planted(lambda k: backend(k)["port"].update(number=8080)))

    def test_object_without_namespace_is_reported(self):
        self.assertIn("metadata.namespace missing",
                      planted(lambda k: k["Service"]["metadata"].pop("namespace")))


if __name__ == "__main__":
    unittest.main()
