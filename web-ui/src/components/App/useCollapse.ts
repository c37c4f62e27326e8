// The App's collapsed-view state: large fabrics start collapsed, the operator expands groups or
// switches the view; what a click on the graph means follows from it (a group expands, a node or
// link is chosen).
import { useCallback, useMemo, useState } from 'react';
import type { FabricSnapshot } from '../../api/types';
import { collapseFabric, COLLAPSE_SWITCHES, GROUP_PREFIX, groupKey, switchCount } from '../../domain/collapse';

export function useCollapse(
  snapshot: FabricSnapshot | null | undefined,
  choose: { node: (id: string) => void; link: (id: string) => void },
) {
  const [choice, setChoice] = useState<boolean | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const large = snapshot ? switchCount(snapshot.fabric) >= COLLAPSE_SWITCHES : false;
  const collapsed = choice ?? large;
  const drawn = useMemo(
    () => (snapshot && collapsed ? collapseFabric(snapshot.fabric, snapshot.linkStates, expanded) : null),
    [snapshot, collapsed, expanded],
  );
  const expand = useCallback((...keys: string[]) => {
    setExpanded((e) => new Set([...e, ...keys]));
  }, []);
  const toggle = useCallback(() => {
    setChoice(!collapsed);
    setExpanded(new Set());
  }, [collapsed]);
  const { node: chooseNodeId, link: chooseLinkId } = choose;

  /** Chooses a node (search, click), first opening the group it is hidden in. */
  const chooseNode = useCallback(
    (id: string) => {
      const node = snapshot?.fabric.nodes.find((n) => n.id === id);
      const key = node ? groupKey(node) : null;
      if (key !== null) expand(key);
      chooseNodeId(id);
    },
    [snapshot, expand, chooseNodeId],
  );
  /** A click on the graph: a group node or a bundle of links expands its group(s). */
  const pickNode = useCallback(
    (id: string) => {
      if (id.startsWith(GROUP_PREFIX)) expand(id.slice(GROUP_PREFIX.length));
      else chooseNode(id);
    },
    [expand, chooseNode],
  );
  const pickLink = useCallback(
    (id: string) => {
      const bundle = drawn?.fabric.links.find((l) => l.id === id && id.startsWith(GROUP_PREFIX));
      if (!bundle) {
        chooseLinkId(id);
        return;
      }
      const ends = [bundle.a.node, bundle.b.node].filter((n) => n.startsWith(GROUP_PREFIX));
      expand(...ends.map((n) => n.slice(GROUP_PREFIX.length)));
    },
    [drawn, expand, chooseLinkId],
  );
  return { drawn, collapsed, toggle, chooseNode, pickNode, pickLink };
}
