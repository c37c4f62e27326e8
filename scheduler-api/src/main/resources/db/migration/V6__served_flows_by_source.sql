-- Agents' profile reads look flows up by source NIC. The plain index on src_nic also returned every
-- flow of every released job, so each read (and each fan-out's PostgreSQL CPU) grew with the
-- history. A flow now says whether its job was released (set in the release's transaction), and
-- profile reads use an index of only the flows agents are served.
alter table flows add column released boolean not null default false;
update flows f set released = true from jobs j where j.id = f.job_id and j.state = 'RELEASED';
drop index flows_by_src;
create index flows_served_by_src on flows (src_nic) where not released and retired_at is null;
