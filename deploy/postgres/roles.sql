-- Weft's PostgreSQL roles: one login role per service, each owning only its own schema, so a
-- service (or whoever steals its password) can neither read nor write another service's tables.
--   weft_scheduler  owns schema scheduler  (scheduler-api: jobs, paths, versions, writer lease)
--   weft_collector  owns schema telemetry  (telemetry-collector: link history, daily partitions)
-- Each role runs its own Flyway migrations; the collector also creates and drops partitions at
-- run time, which is why a role owns its schema rather than holding DML grants only.
--
-- Run on the weft database as a superuser (or a role with CREATEROLE owning the database). Plain
-- SQL (no psql meta-commands), idempotent. Passwords are not in this file: apply-roles.sh sets them
-- from the environment or mounted files; the devstack sets its own.

DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'weft_scheduler') THEN
        CREATE ROLE weft_scheduler LOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'weft_collector') THEN
        CREATE ROLE weft_collector LOGIN;
    END IF;
END
$$;
ALTER ROLE weft_scheduler LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
ALTER ROLE weft_collector LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;

-- Nothing for everyone: no objects in public, no new schemas, no temp tables, no connecting
-- unless granted.
REVOKE ALL ON SCHEMA public FROM PUBLIC;
DO $$
BEGIN
    EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO weft_scheduler, weft_collector', current_database());
END
$$;

CREATE SCHEMA IF NOT EXISTS scheduler AUTHORIZATION weft_scheduler;
CREATE SCHEMA IF NOT EXISTS telemetry AUTHORIZATION weft_collector;
-- Other roles' way in is only what an owner grants; make sure nobody else was granted anything.
REVOKE ALL ON SCHEMA scheduler FROM PUBLIC;
REVOKE ALL ON SCHEMA telemetry FROM PUBLIC;
