import type { SwitchDetail as Detail } from '../../domain/switchDetail';
import './SwitchDetail.css';

interface Props {
  detail: Detail;
  onClose: () => void;
}

function EvTable({ name, members }: { name: string; members: string[] }) {
  if (members.length === 0) return <p>{name}: empty</p>;
  return (
    <details>
      <summary>
        {name}: {members.length} members
      </summary>
      <ol start={0} aria-label={`${name} members`}>
        {members.map((m, i) => (
          <li key={`${i}-${m}`}>{m}</li>
        ))}
      </ol>
    </details>
  );
}

/** A switch's planned SRv6 identity (locator, SIDs), its EV tables and its gNMI sync state. */
export function SwitchDetail({ detail, onClose }: Props) {
  const d = detail;
  return (
    <section className="switch-detail" role="region" aria-label={`Switch ${d.id}`}>
      <header className="switch-detail__header">
        <h2>
          {d.id} <span className="switch-detail__role">{d.role}</span>
        </h2>
        <button type="button" onClick={onClose} aria-label={`Close switch ${d.id}`}>
          ×
        </button>
      </header>
      <dl>
        <dt>gNMI</dt>
        <dd className={`switch-detail__sync switch-detail__sync--${d.sync?.state ?? 'none'}`}>
          {d.sync ? d.sync.state : 'no gNMI endpoint reported'}
          {d.sync?.lastSyncAt && ` (last in sync ${d.sync.lastSyncAt})`}
          {d.sync?.lastError && `: ${d.sync.lastError}`}
        </dd>
        {d.unplanned ? (
          <>
            <dt>plan</dt>
            <dd>no plan entry (a NIC, or no plan in the snapshot)</dd>
          </>
        ) : (
          <>
            <dt>uN id</dt>
            <dd>{d.nodeId !== undefined ? `0x${d.nodeId.toString(16)}` : '?'}</dd>
            <dt>locator</dt>
            <dd>{d.locator ?? '?'}</dd>
            <dt>loopback</dt>
            <dd>{d.loopback ?? '?'}</dd>
            {d.nicPrefix && (
              <>
                <dt>NIC prefix</dt>
                <dd>{d.nicPrefix}</dd>
              </>
            )}
          </>
        )}
      </dl>
      {d.sids.length > 0 && (
        <table aria-label={`SIDs of ${d.id}`}>
          <thead>
            <tr>
              <th>kind</th>
              <th>SID</th>
              <th>of</th>
            </tr>
          </thead>
          <tbody>
            {d.sids.map((s) => (
              <tr key={`${s.kind}-${s.sid}`}>
                <td>{s.kind}</td>
                <td>{s.sid}</td>
                <td>{s.of ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!d.unplanned && (
        <>
          <EvTable name="EV stage 1" members={d.evStage1} />
          <EvTable name="EV stage 2" members={d.evStage2} />
        </>
      )}
    </section>
  );
}
