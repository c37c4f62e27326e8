-- Telemetry history: 1-second link rollups and every hotspot event, partitioned by day (native range
-- partitioning) so that retention is a DROP of whole partitions, not a DELETE. Partitions are created
-- ahead by the collector (io.weft.telemetry.history.Partitions), never here: the dates are not known yet.

-- One row per link direction and second. Sums, not averages, so that a late or redelivered sample
-- of the same second merges into the row (upsert adds): average = sum / samples.
CREATE TABLE link_rollup (
    link_id          text             NOT NULL,
    to_node          text             NOT NULL,
    second           timestamptz      NOT NULL,
    fabric_id        text             NOT NULL,
    samples          integer          NOT NULL,
    rate_gbps_sum    double precision NOT NULL,
    rate_gbps_max    double precision NOT NULL,
    util_sum         double precision NOT NULL,
    util_max         double precision NOT NULL,
    capacity_gbps    double precision NOT NULL,
    drop_rate_max    double precision,
    ecn_fraction_max double precision,
    oper_status      text,
    hot              boolean          NOT NULL,
    PRIMARY KEY (link_id, second, to_node)
) PARTITION BY RANGE (second);

-- The contract's hotspot event, partitioned by the time of the sample that triggered it.
CREATE TABLE hotspot_event (
    event_id      text             NOT NULL,
    sample_time   timestamptz      NOT NULL,
    sample_ts_ns  numeric(20)      NOT NULL,
    kind          text             NOT NULL CHECK (kind IN ('hotspot-start', 'hotspot-end', 'link-down', 'link-up')),
    link_id       text             NOT NULL,
    direction     text             NOT NULL,
    detected_at   timestamptz      NOT NULL,
    utilisation   double precision,
    drop_rate     double precision,
    ecn_fraction  double precision,
    threshold     double precision,
    PRIMARY KEY (event_id, sample_time)
) PARTITION BY RANGE (sample_time);

CREATE INDEX hotspot_event_link ON hotspot_event (link_id, sample_time);
CREATE INDEX hotspot_event_time ON hotspot_event (sample_time);
