"""Plants each violation gnmic_login_check exists for into a clean prod-like render (the repository's
prod gnmic config) and asserts it is reported.
    python3 -m unittest deploy/checks/test_gnmic_login_check.py
"""
import copy
import json
import os
import sys
import unittest

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gnmic_login_check import ROOT, check  # noqa: E402

BASE = yaml.safe_load(open(os.path.join(ROOT, "deploy", "k8s", "base", "gnmic", "gnmic.yaml")))
PROD = open(os.path.join(ROOT, "deploy", "k8s", "overlays", "prod", "gnmic", "gnmic.yaml")).read()
CATALOGUE = json.load(open(os.path.join(ROOT, "contracts", "topics.json")))
CLEAN = [
    {"kind": "ConfigMap", "metadata": {"name": "gnmic-config-abc"}, "data": {"gnmic.yaml": PROD}},
    yaml.safe_load("""
kind: Deployment
metadata: {name: gnmic}
spec:
  template:
    spec:
      containers:
        - name: gnmic
          env:
            - name: WEFT_KAFKA_PASSWORD
              valueFrom: {secretKeyRef: {name: weft-gnmic, key: password}}
          volumeMounts:
            - {name: kafka-ca, mountPath: /etc/weft/kafka-ca}
"""),
    yaml.safe_load("""
kind: NetworkPolicy
metadata: {name: egress-kafka}
spec:
  egress: [{ports: [{protocol: TCP, port: 9093}]}]
"""),
]


def planted(change):
    """CLEAN with change(gnmic config, deployment container, network policy) applied."""
    docs = copy.deepcopy(CLEAN)
    cfg = yaml.safe_load(docs[0]["data"]["gnmic.yaml"])
    change(cfg, docs[1]["spec"]["template"]["spec"]["containers"][0], docs[2])
    docs[0]["data"]["gnmic.yaml"] = yaml.safe_dump(cfg)
    return check(docs, BASE, CATALOGUE)


def output(cfg):
    return cfg["outputs"]["weft-kafka"]


class GnmicLoginCheckTest(unittest.TestCase):
    def test_the_repository_prod_config_is_clean(self):
        self.assertEqual(check(copy.deepcopy(CLEAN), BASE, CATALOGUE), [])

    def assertReported(self, change, fragment):
        bad = planted(change)
        self.assertTrue(any(fragment in b for b in bad), f"{fragment!r} not in {bad}")

    def test_each_violation_is_reported(self):
        cases = [
            (lambda c, k, n: output(c).pop("sasl"), "sasl.mechanism"),
            (lambda c, k, n: output(c)["sasl"].update(mechanism="PLAIN"), "sasl.mechanism"),
            (lambda c, k, n: output(c)["sasl"].update(user="weft-telemetry-collector"), "no writer"),
            (lambda c, k, n: output(c)["sasl"].update(password="hunter2"), "environment reference"),
            (lambda c, k, n: output(c).pop("tls"), "ca-file"),
            (lambda c, k, n: output(c)["tls"].update({"skip-verify": True}), "no skip-verify"),
            (lambda c, k, n: output(c).update(address="kafka:9092"), "9093"),
            (lambda c, k, n: c.update(log=True), "would log"),
            (lambda c, k, n: output(c).pop("insert-key"), "insert-key"),
            (lambda c, k, n: output(c).update({"insert-key": False}), "insert-key"),
            (lambda c, k, n: output(c).update(topic="weft.fabric"), "differs from"),
            (lambda c, k, n: c["targets"].pop("leaf1"), "differs from"),
            (lambda c, k, n: k.pop("env"), "not set from a secret"),
            (lambda c, k, n: k.pop("volumeMounts"), "nothing mounted"),
            (lambda c, k, n: n["spec"]["egress"][0]["ports"].append({"port": 9092}), "9092"),
        ]
        for change, fragment in cases:
            with self.subTest(fragment=fragment):
                self.assertReported(change, fragment)


if __name__ == "__main__":
    unittest.main()
