-- Fabric-wide re-spreading gives a multipath flow a new set of paths, so a flow's slices change
-- after admission: a slice the new answer no longer uses is retired (kept, with its history, but no
-- longer placed, listed or served to agents), a new one is inserted. Only slices in use must be
-- unique per (job, flow, slice): a retired `<job>/<k>` slice 0 and its successor `<job>/<k>.0`
-- share those numbers.
alter table flows add column retired_at timestamptz;
alter table flows drop constraint flows_job_id_flow_index_slice_key;
create unique index flows_in_use on flows (job_id, flow_index, slice) where retired_at is null;
