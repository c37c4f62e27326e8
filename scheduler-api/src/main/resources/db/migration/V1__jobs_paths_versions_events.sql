-- Scheduler API schema. PostgreSQL is the source of truth: the in-memory reservations and the
-- long-poll board are rebuilt from these tables at start-up.

-- One row per submitted job. request keeps the body as received (for audit and re-expansion).
create table jobs (
    id            text primary key,
    name          text not null,
    tenant        text not null,
    state         text not null check (state in ('ACTIVE', 'RELEASED')),
    pattern       text not null,
    encoding      text not null check (encoding in ('srv6', 'ev', 'both')),
    request       jsonb not null,
    max_load      double precision not null,
    collisions    integer not null,
    created_by    text not null,
    created_at    timestamptz not null default now(),
    released_at   timestamptz,
    seq           bigserial not null unique
);
create index jobs_listing on jobs (tenant, state, seq);

-- One row per placeable flow (a QP slice of a pattern flow), in the engine's terms.
create table flows (
    id            text primary key,
    job_id        text not null references jobs (id),
    flow_index    integer not null,
    slice         integer not null,
    src_nic       text not null,
    dst_nic       text not null,
    demand_gbps   double precision not null,
    unique (job_id, flow_index, slice)
);
create index flows_by_src on flows (src_nic);

-- Current path of each flow; version is the NIC version (nic_versions) at which it was issued.
create table path_assignments (
    flow_id       text primary key references flows (id),
    version       bigint not null,
    arcs          text[] not null,
    carriers      text[] not null,
    usids         integer[] not null,
    ev            integer,
    state         text not null check (state in ('GOOD', 'ASSUMED_BAD', 'DENIED', 'UNKNOWN'))
);

-- Every path a flow ever had, with why it changed (placed, re-placed: link-down, drain, ...).
create table path_history (
    id            bigserial primary key,
    flow_id       text not null references flows (id),
    job_id        text not null references jobs (id),
    version       bigint not null,
    arcs          text[],
    reason        text not null,
    at            timestamptz not null default now()
);
create index path_history_by_job on path_history (job_id, id);

-- One shared sequence makes every NIC's versions strictly increasing, across restarts too.
create sequence nic_version_seq;
create table nic_versions (
    nic           text primary key,
    version       bigint not null
);

-- POST /v1/jobs retries: the same caller and key return the first answer, never a second job.
create table idempotency_keys (
    caller        text not null,
    key           text not null,
    request_hash  text not null,
    job_id        text not null references jobs (id),
    created_at    timestamptz not null default now(),
    primary key (caller, key)
);

-- What happened, in order: replayed to SSE clients that reconnect with Last-Event-ID.
create table events (
    id            bigserial primary key,
    type          text not null,
    subject       text not null,
    payload       jsonb not null,
    at            timestamptz not null default now()
);

-- Links taken out of service by an operator; survives restarts.
create table link_drains (
    link_id       text primary key,
    drained_by    text not null,
    drained_at    timestamptz not null default now()
);
