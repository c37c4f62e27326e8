-- Weighted multipath. A spread flow is stored as one flow slice per path (flows.slice = path
-- index, demand_gbps = its share of the pattern flow's demand); weight is that share (the slice's
-- units / the job's granularity), null for a flow on one path or an equal QP slice. The slices are
-- placed, reserved, re-placed and served to agents like any other slice, so the shares never change
-- after admission and always sum to 1 per pattern flow.
alter table flows add column weight double precision
    check (weight is null or (weight > 0 and weight <= 1));

-- What the multipath planner answered for a job that asked for it (JobViews.MultipathView as JSON):
-- limits, max load single-path vs spread, the proven lower bound, and why it fell back if it did.
alter table jobs add column multipath jsonb;
