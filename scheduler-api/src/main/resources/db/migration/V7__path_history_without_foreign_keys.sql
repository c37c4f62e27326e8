-- path_history is append-only and written only in the transaction that stores or changes the flow
-- it names (PathLedger, JobStore.retireFlows); flows and jobs are never deleted (retired, released).
-- Its two foreign keys checked each history row against flows and jobs (a lookup and a row lock
-- each): ~10 us a row, ~60 % of the history insert, in a re-spread writing ~3,000 rows under the
-- single writer. The primary key and the per-job index stay.
alter table path_history drop constraint path_history_flow_id_fkey;
alter table path_history drop constraint path_history_job_id_fkey;
