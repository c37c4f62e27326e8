"""Plants each violation kafka_login_check exists for into clean inputs (the repository's compose file and
broker settings, a small rendered-overlay excerpt) and asserts it is reported.
    python3 -m unittest deploy/checks/test_kafka_login_check.py
"""
import copy
import json
import os
import sys
import unittest

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kafka_login_check import ROOT, compose_problems, k8s_problems, properties  # noqa: E402

CATALOGUE = json.load(open(os.path.join(ROOT, "contracts", "topics.json")))
BROKER = properties(open(os.path.join(ROOT, "deploy", "kafka", "broker.properties")).read())
GNMIC = yaml.safe_load(open(os.path.join(ROOT, "deploy", "gnmic", "gnmic.yaml")))
# The raw file: YAML merge keys resolve here as in compose; ${...} stay as (non-empty) text.
COMPOSE = yaml.safe_load(open(os.path.join(ROOT, "docker-compose.yml")))["services"]
K8S = list(yaml.safe_load_all("""
kind: ConfigMap
metadata: {name: weft-endpoints-abc}
data: {WEFT_KAFKA_BOOTSTRAP: "kafka:9093", WEFT_KAFKA_SECURITY_PROTOCOL: SASL_SSL,
       WEFT_KAFKA_CA_FILE: /etc/weft/kafka-ca/ca.crt}
---
kind: Deployment
metadata: {name: scheduler-api}
spec:
  template:
    spec:
      containers:
        - name: scheduler-api
          envFrom: [{configMapRef: {name: weft-endpoints-abc}}]
          env:
            - {name: WEFT_KAFKA_USERNAME, value: weft-scheduler-api}
            - {name: WEFT_KAFKA_PASSWORD_FILE, value: /etc/weft/kafka-login/password}
          volumeMounts:
            - {name: kafka-login, mountPath: /etc/weft/kafka-login}
            - {name: kafka-ca, mountPath: /etc/weft/kafka-ca}
      volumes:
        - {name: kafka-login, secret: {secretName: weft-scheduler-api}}
        - {name: kafka-ca, secret: {secretName: weft-kafka-cluster-ca-cert}}
---
kind: StatefulSet
metadata: {name: kafka}
spec:
  template:
    spec:
      containers:
        - name: kafka
          image: apache/kafka:4.2.1
          command: [sh, /weft/kafka/start-broker.sh]
          ports: [{containerPort: 9093}]
---
kind: Service
metadata: {name: kafka}
spec: {ports: [{name: broker, port: 9093}]}
---
kind: NetworkPolicy
metadata: {name: kafka-ingress}
spec: {ingress: [{ports: [{protocol: TCP, port: 9093}]}]}
"""))


def compose(change):
    services, broker, gnmic = copy.deepcopy(COMPOSE), dict(BROKER), copy.deepcopy(GNMIC)
    change(services, broker, gnmic)
    return compose_problems(services, broker, gnmic, CATALOGUE)


def k8s(change):
    docs, broker = copy.deepcopy(K8S), dict(BROKER)
    change(docs, broker)
    return k8s_problems(docs, broker, CATALOGUE)


def container(docs, kind):
    return next(d for d in docs if d["kind"] == kind)["spec"]["template"]["spec"]["containers"][0]


class ComposeTest(unittest.TestCase):
    def test_the_repository_compose_is_clean(self):
        self.assertEqual(compose(lambda s, b, g: None), [])

    def assertReported(self, change, *fragments):
        bad = compose(change)
        for f in fragments:
            self.assertTrue(any(f in b for b in bad), f"{f!r} not in {bad}")

    def test_a_client_without_a_login(self):
        self.assertReported(lambda s, b, g: s["scheduler-api"]["environment"].pop("WEFT_KAFKA_USERNAME"),
                            "scheduler-api: WEFT_KAFKA_USERNAME None")
        self.assertReported(lambda s, b, g: s["telemetry-collector"]["environment"].pop("WEFT_KAFKA_PASSWORD"),
                            "telemetry-collector: no WEFT_KAFKA_PASSWORD")

    def test_a_client_on_plaintext(self):
        def plaintext(s, b, g):
            s["scheduler-api"]["environment"]["WEFT_KAFKA_SECURITY_PROTOCOL"] = "PLAINTEXT"
            s["scheduler-api"]["environment"]["WEFT_KAFKA_BOOTSTRAP"] = "kafka:9092"
        self.assertReported(plaintext, "want SASL_SSL", "kafka:9092 is not the TLS")

    def test_the_controller_pointed_at_9092(self):
        def to_9092(s, b, g):
            cmd = s["weft-controller"]["command"]
            cmd[cmd.index("--kafka") + 1] = "kafka:9092"
        self.assertReported(to_9092, "weft-controller: --kafka kafka:9092")

    def test_a_principal_the_catalogue_does_not_know(self):
        self.assertReported(lambda s, b, g: s["onos"]["environment"].update(WEFT_KAFKA_USERNAME="admin"),
                            "onos: WEFT_KAFKA_USERNAME 'admin'")

    def test_a_ca_file_that_is_not_mounted(self):
        self.assertReported(lambda s, b, g: s["scheduler-api"].pop("volumes"),
                            "scheduler-api: nothing mounted at /etc/weft/kafka-ca")

    def test_a_new_service_that_waits_on_kafka_without_logging_in(self):
        self.assertReported(lambda s, b, g: s.update(
            probe={"image": "weft/probe:1", "depends_on": {"kafka-setup": {}}}), "probe: WEFT_KAFKA_SECURITY_PROTOCOL")

    def test_the_image_s_own_plaintext_broker(self):
        self.assertReported(lambda s, b, g: s["kafka"].pop("entrypoint"), "kafka: a Kafka image not running")
        self.assertReported(lambda s, b, g: s["kafka"]["environment"].update(
            KAFKA_LISTENERS="PLAINTEXT://:9092"), "kafka: KAFKA_LISTENERS overrides")

    def test_a_plaintext_or_open_listener_in_the_broker_settings(self):
        self.assertReported(lambda s, b, g: b.update(
            listeners=b["listeners"] + ",PLAINTEXT://:9092"), "listener PLAINTEXT://:9092 is PLAINTEXT")
        self.assertReported(lambda s, b, g: b.update(
            listeners="SASL_SSL://:9093,CONTROLLER://:9094"), "listener CONTROLLER://:9094 is SASL_PLAINTEXT")
        self.assertReported(lambda s, b, g: b.update({"allow.everyone.if.no.acl.found": "true"}),
                            "allow.everyone.if.no.acl.found")
        self.assertReported(lambda s, b, g: b.pop("authorizer.class.name"), "no authorizer")

    def test_gnmic_without_a_login(self):
        self.assertReported(lambda s, b, g: g["outputs"]["weft-kafka"].pop("sasl"), "sasl.mechanism None")
        self.assertReported(lambda s, b, g: s["gnmic"]["environment"].pop("WEFT_KAFKA_PASSWORD"),
                            "gnmic: WEFT_KAFKA_PASSWORD is not set")
        self.assertReported(lambda s, b, g: g["outputs"]["weft-kafka"].update(address="kafka:9092"),
                            "address 'kafka:9092'")


class KubernetesTest(unittest.TestCase):
    def test_the_excerpt_is_clean(self):
        self.assertEqual(k8s(lambda d, b: None), [])

    def assertReported(self, change, *fragments):
        bad = k8s(change)
        for f in fragments:
            self.assertTrue(any(f in b for b in bad), f"{f!r} not in {bad}")

    def test_a_container_without_a_login(self):
        self.assertReported(lambda d, b: container(d, "Deployment").pop("env"),
                            "scheduler-api: WEFT_KAFKA_USERNAME None", "no WEFT_KAFKA_PASSWORD")

    def test_a_container_with_its_own_kafka_settings_is_a_client_too(self):
        # ONOS's pods set no bootstrap (the app's config does) but log in from WEFT_KAFKA_*.
        def onos_like(d, b):
            c = container(d, "Deployment")
            c.pop("envFrom")
            c["env"] = [{"name": "WEFT_KAFKA_USERNAME", "value": "weft-controller"}]
        self.assertReported(onos_like, "want SASL_SSL", "no WEFT_KAFKA_PASSWORD", "no WEFT_KAFKA_CA_FILE")

    def test_the_endpoints_on_plaintext(self):
        def plaintext(d, b):
            d[0]["data"].update(WEFT_KAFKA_SECURITY_PROTOCOL="PLAINTEXT", WEFT_KAFKA_BOOTSTRAP="kafka:9092")
        self.assertReported(plaintext, "want SASL_SSL", "kafka:9092 is not the TLS")

    def test_a_password_not_from_a_secret(self):
        def literal(d, b):
            c = container(d, "Deployment")
            c["env"][1] = {"name": "WEFT_KAFKA_PASSWORD", "value": "hunter2"}
        self.assertReported(literal, "WEFT_KAFKA_PASSWORD is not set from a Secret")

        def from_configmap(d, b):
            next(x for x in d if x["kind"] == "Deployment")["spec"]["template"]["spec"]["volumes"][0] = {
                "name": "kafka-login", "configMap": {"name": "oops"}}
        self.assertReported(from_configmap, "WEFT_KAFKA_PASSWORD_FILE is not mounted from a Secret")

    def test_plaintext_9092_anywhere(self):
        def open_9092(d, b):
            container(d, "StatefulSet")["ports"].append({"containerPort": 9092})
            next(x for x in d if x["kind"] == "Service")["spec"]["ports"].append({"port": 9092})
            next(x for x in d if x["kind"] == "NetworkPolicy")["spec"]["ingress"][0]["ports"].append({"port": 9092})
        self.assertReported(open_9092, "kafka: listens on plaintext Kafka 9092", "Service kafka: offers",
                            "NetworkPolicy kafka-ingress: opens")

    def test_the_image_s_own_broker(self):
        def stock(d, b):
            c = container(d, "StatefulSet")
            c.pop("command")
            c["env"] = [{"name": "KAFKA_LISTENERS", "value": "PLAINTEXT://:9092"}]
        self.assertReported(stock, "not started by deploy/kafka/start-broker.sh", "KAFKA_LISTENERS overrides")

    def test_the_broker_settings_count_where_the_broker_runs(self):
        self.assertReported(lambda d, b: b.update(listeners="PLAINTEXT://:9092"), "is PLAINTEXT")


if __name__ == "__main__":
    unittest.main()
