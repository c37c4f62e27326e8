"""Strimzi KafkaTopic resources for every topic of contracts/topics.json.

    python3 deploy/k8s/gen-kafka-topics.py            # rewrite overlays/prod/kafka-topics.yaml
    python3 deploy/k8s/gen-kafka-topics.py --check    # exit 1 if the committed file is stale

The catalogue's partitions and configs are kept; its replicationFactor (1, for the one-broker dev
setups) is raised to PROD_REPLICAS with min.insync.replicas 2, so prod survives one broker's loss.
"""
import json
import os

import kafka_catalogue

OUT = os.path.join(kafka_catalogue.ROOT, "deploy", "k8s", "overlays", "prod", "kafka-topics.yaml")
NAMESPACE = "kafka"         # the namespace Strimzi's topic operator watches
PROD_REPLICAS = 3


def topic_spec(t):
    config = dict(t.get("config", {}))
    config.setdefault("min.insync.replicas", "2")
    return [
        f"topicName: {t['name']}",
        f"partitions: {int(t['partitions'])}",
        f"replicas: {max(PROD_REPLICAS, int(t.get('replicationFactor', 1)))}",
        "config:",
    ] + [f"  {k}: {json.dumps(str(v))}" for k, v in sorted(config.items())]


def render(cat):
    topics = [(t["name"], topic_spec(t)) for t in cat["topics"]]
    return {OUT: kafka_catalogue.strimzi_resources("gen-kafka-topics.py", "topic", NAMESPACE, "KafkaTopic", topics)}


if __name__ == "__main__":
    kafka_catalogue.main(render, "gen-kafka-topics.py")
