import { useId, useMemo, useState } from 'react';
import { searchNodes } from '../../domain/switchDetail';
import './NodeSearch.css';

interface Props {
  nodeIds: readonly string[];
  onFound: (nodeId: string) => void;
}

/** Find a node by id: suggestions as you type, Enter picks the best match. */
export function NodeSearch({ nodeIds, onFound }: Props) {
  const [query, setQuery] = useState('');
  const [missing, setMissing] = useState<string | null>(null);
  const listId = useId();
  const matches = useMemo(() => searchNodes(nodeIds, query), [nodeIds, query]);
  return (
    <form
      className="node-search"
      role="search"
      aria-label="Nodes"
      onSubmit={(e) => {
        e.preventDefault();
        const best = matches[0];
        if (best) {
          setMissing(null);
          onFound(best);
        } else setMissing(query.trim());
      }}
    >
      <input
        type="search"
        aria-label="Search node id"
        placeholder="node id"
        list={listId}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setMissing(null);
        }}
      />
      <datalist id={listId}>
        {matches.map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
      {missing !== null && missing !== '' && (
        <span className="node-search__missing" role="status">
          no node “{missing}”
        </span>
      )}
    </form>
  );
}
