-- Link drains are owned by the controller now (its snapshot on weft.fabric carries every link's state);
-- scheduler-api no longer keeps its own. A drain recorded here before the upgrade keeps its meaning:
-- it becomes a 'link-drain-handover' event, and at start-up scheduler-api forwards each such drain
-- to the controller once (DrainHandover), recording 'link-drain-handed-over' when the controller took it.
-- Until then the link is up in the snapshot: flows may use it in that window.
insert into events (type, subject, payload)
select 'link-drain-handover', link_id,
       jsonb_build_object('linkId', link_id, 'by', drained_by, 'drainedAt', drained_at)
from link_drains
order by drained_at;

drop table link_drains;
