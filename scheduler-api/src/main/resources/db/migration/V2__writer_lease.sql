-- The writer lease: which replica may place. The lease itself is a PostgreSQL advisory lock held on
-- a dedicated connection; this row counts its terms. A replica taking the lease bumps the epoch, and
-- every placement transaction reads it under a share lock, so a writer that lost the lease without
-- noticing can no longer commit once its successor took over.
create table writer_lease (
    id            integer primary key check (id = 1),
    epoch         bigint not null,
    holder        text not null,
    since         timestamptz not null default now()
);
